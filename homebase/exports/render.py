"""Export rows to wire payloads."""

from datetime import datetime
from typing import Any

from homebase.kit.clock import isoformat
from homebase.kit.links import SignedLink


def status(row: dict[str, Any], now: datetime) -> str:
    """A completed export past its expiry reads as expired before the sweep removes its
    file (the download route refuses it the same way)."""
    if row["status"] == "completed" and row["expires_at"] is not None and row["expires_at"] <= now:
        return "expired"
    return str(row["status"])


def export(row: dict[str, Any], *, now: datetime, link: SignedLink | None) -> dict[str, Any]:
    return {
        "id": row["id"],
        "object": row["object"],
        "format": row["format"],
        "status": status(row, now),
        "filters": row["filters"],
        "fields": row["fields"],
        "pii_masked": not row["pii"],
        "rows": row["rows"],
        "created_at": isoformat(row["created_at"]),
        "started_at": isoformat(row["started_at"]),
        "finished_at": isoformat(row["finished_at"]),
        "expires_at": isoformat(row["expires_at"]),
        "download_url": link.url if link else None,
        "download_url_expires_at": isoformat(link.expires_at) if link else None,
        "failure_reason": row["failure_reason"],
    }
