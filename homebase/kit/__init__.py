"""Shared machinery that knows nothing of any domain."""
