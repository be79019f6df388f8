"""The send gates: one pure decision over workspace, recipient and clock (gates.py)."""
