"""Event rows to wire payloads: the webhook envelope (webhooks/render.py), one builder
for both."""

from collections.abc import Callable
from datetime import datetime
from typing import Any

from homebase.webhooks.render import event_envelope

SEPARATOR = "|"


def event(row: dict[str, Any], *, pii: bool) -> dict[str, Any]:
    """Masked as a delivery is, unless the credential holds contacts:read:pii: then the
    stored data as it was written (events are stored whole, masked as they leave)."""
    return event_envelope(
        row["type"], row["workspace_id"], row["id"], row["occurred_at"], row["data"], mask=not pii
    )


def renderer(*, pii: bool) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda row: event(row, pii=pii)


def position(row: dict[str, Any]) -> str:
    """What a cursor carries: the event's exact place in the order (occurred_at to the
    microsecond, then id)."""
    moment: datetime = row["occurred_at"]
    return f"{moment.isoformat()}{SEPARATOR}{row['id']}"
