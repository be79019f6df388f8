"""Idempotency-Key for POST under /v1 (store.py; driven by http/v1_route.py)."""
