"""Erasing a contact's personal data (DELETE /v1/contacts/{id}): registry.py names every
scrubber in order and every table it leaves alone, with why; service.py runs them."""
