"""Task rows to wire payloads."""

from typing import Any

from homebase.kit.clock import isoformat


def task(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "title": row["title"],
        "contact_id": row["contact_id"],
        "assignee_id": row["assignee_id"],
        "due_at": isoformat(row["due_at"]),
        "status": row["status"],
        "notes": row["notes"],
        "source": row["source"],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }
