"""Rows to wire payloads: subscriptions, the delivery log, and the delivery body."""

from datetime import datetime
from typing import Any

import orjson

from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_freeform
from homebase.webhooks.records import AttemptRecord, DeliveryRecord, SubscriptionRecord
from homebase.webhooks.schemas import Attempt, Delivery, Webhook

# Members that carry phone numbers in any event's data, masked whole by the typed rule
# (mask_phone, as the emitters do) wherever they appear: a number too short for the phone
# matcher is still masked there. Every other string, at any depth, goes through
# mask_freeform: phone numbers and addresses are found by value, whatever the member is
# called (a lead's `context`, a contact's notes, a call's summary).
PHONE_MEMBERS = frozenset(
    {
        "phone",
        "phone_e164",
        "to",
        "from",
        "from_number",
        "to_number",
        "phone_number",
        "mobile",
        "caller",
        "callee",
    }
)


def subscription(row: SubscriptionRecord) -> Webhook:
    return {
        "id": row["id"],
        "url": row["url"],
        "event_types": row["event_types"],
        "secret_hint": row["secret_hint"],
        "status": "active" if row["disabled_at"] is None else "disabled",
        "disabled_reason": row["disabled_reason"],
        "disabled_at": isoformat(row["disabled_at"]),
        "failing_since": isoformat(row["failing_since"]),
        "created_at": isoformat(row["created_at"]),
    }


def attempt(row: AttemptRecord) -> Attempt:
    return {
        "id": row["id"],
        "number": row["number"],
        "outcome": row["outcome"],
        "status_code": row["status_code"],
        "latency_ms": row["latency_ms"],
        "error": row["error"],
        "started_at": isoformat(row["started_at"]),
        "finished_at": isoformat(row["finished_at"]),
    }


def delivery(row: DeliveryRecord, attempts: list[AttemptRecord]) -> Delivery:
    return {
        "id": row["id"],
        "subscription_id": row["subscription_id"],
        "event_id": row["event_id"],
        "event_type": row["event_type"],
        "status": row["status"],
        "attempts": row["attempts"],
        "next_attempt_at": isoformat(row["next_attempt_at"])
        if row["status"] == "pending"
        else None,
        "last_status_code": row["last_status_code"],
        "last_error": row["last_error"],
        "created_at": isoformat(row["created_at"]),
        "completed_at": isoformat(row["completed_at"]),
        "attempt_log": [attempt(item) for item in attempts],
    }


# an event's data: each emitter's own JSON (outbox/catalogue.py documents it), a boundary
def masked(data: dict[str, Any]) -> dict[str, Any]:
    """Event data as it leaves: typed phone members masked whole, every other string by
    value, in one walk. The emitters store it whole (a credential holding
    contacts:read:pii reads it so from GET /v1/events; erasure scrubs it), so a rendering
    that says whether it was masked (a contact's `pii_masked`) says so here."""
    # as `data`
    shown: dict[str, Any] = mask_freeform(data, phone_members=PHONE_MEMBERS)
    if "pii_masked" in shown:
        shown = {**shown, "pii_masked": True}  # a copy: mask_freeform may hand back `data`
    return shown


def event_envelope(
    event_type: str,
    workspace_id: str,
    event_id: str,
    occurred_at: datetime,
    data: dict[str, Any],  # as masked's
    *,
    mask: bool = True,
) -> dict[str, Any]:  # the envelope of that JSON
    """An event as it leaves the service, in a webhook delivery or from GET /v1/events:
    `mask` False only for a credential holding contacts:read:pii (the events API); a
    delivery always masks."""
    when = isoformat(occurred_at)
    shown = masked(data) if mask else data
    return {
        "event": event_type,
        "tenantId": workspace_id,
        "occurredAt": when,
        "data": {
            "event_id": event_id,
            "occurred_at": when,
            **{k: v for k, v in shown.items() if k not in ("event_id", "occurred_at")},
        },
    }


def envelope(
    event_type: str,
    workspace_id: str,
    event_id: str,
    occurred_at: datetime,
    data: dict[str, Any],  # as masked's
) -> bytes:
    """The delivery body: the same bytes on every attempt of an event, unless its contact
    was anonymized in between (its stored data is scrubbed then; outbox/redaction.py)."""
    return orjson.dumps(event_envelope(event_type, workspace_id, event_id, occurred_at, data))
