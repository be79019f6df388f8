"""Messaging: SMS, WhatsApp and email sends behind the compliance gates, and inbound."""
