"""The workspace inbox: one conversation per contact, read state per member."""
