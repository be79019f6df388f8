"""Webhook subscriptions and their signed, leased, retried delivery (docs/webhooks.md).

Receivers can check a delivery with `homebase.webhooks.verify` (see signing.py)."""

from homebase.webhooks.signing import SignatureMismatch, verify

__all__ = ["SignatureMismatch", "verify"]
