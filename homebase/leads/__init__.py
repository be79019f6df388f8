"""Leads: capture with consent, linking to contacts, routing and assignment."""
