"""Consent artifacts: evidence of consent, tied to a normalized phone number."""
