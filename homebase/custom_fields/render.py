"""Rows to wire payloads. A record's values are rendered by Definitions.render
(definitions.py), which contacts/render.py and deals/render.py call."""

from typing import Any

from homebase.kit.clock import isoformat


def custom_field(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "object": row["object"],
        "key": row["key"],
        "label": row["label"],
        "type": row["type"],
        "choices": list(row["choices"]) if row["choices"] is not None else None,
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }
