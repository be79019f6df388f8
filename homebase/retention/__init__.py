"""Retention: the worker prunes what grows without bound (docs/operations.md)."""
