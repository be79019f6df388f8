"""Bulk imports of contacts and leads (POST /v1/imports, docs/imports-exports.md)."""
