"""Records to wire payloads. Numbers are masked here unless the credential may see them."""

from collections.abc import Callable
from typing import cast

from homebase.calls.recordings import RecordingLink
from homebase.calls.records import CallCompleted, CallRecord
from homebase.calls.schemas import Call, CallDirection, HandledBy
from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_phone

LinkMaker = Callable[[CallRecord], RecordingLink | None]


def call(row: CallRecord, *, pii: bool, link: LinkMaker) -> Call:
    recording = link(row) if row["recording_key"] else None
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        # stored as the enums' values, which are what the wire sends
        "direction": cast(CallDirection, row["direction"]),
        "from": row["from_number"] if pii else mask_phone(row["from_number"]),
        "to": row["to_number"] if pii else mask_phone(row["to_number"]),
        "pii_masked": not pii,
        "started_at": isoformat(row["started_at"]),
        "ended_at": isoformat(row["ended_at"]),
        "duration_seconds": row["duration_seconds"],
        "handled_by": cast(HandledBy, row["handled_by"]),
        "user_id": row["user_id"],
        "disposition": row["disposition"],
        "transcript": row["transcript"],
        "summary": row["summary"],
        "recording_url": recording.url if recording else None,
        "recording_url_expires_at": isoformat(recording.expires_at) if recording else None,
        "provider_call_id": row["provider_call_id"],
        "created_at": isoformat(row["created_at"]),
    }


def completed_event(row: CallRecord) -> CallCompleted:
    """call.completed data, stored whole: no transcript, no (short-lived) link; a delivery
    masks the phones (webhooks/render.masked), the events API too unless the credential
    holds contacts:read:pii."""
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        "direction": row["direction"],
        "from": row["from_number"],
        "to": row["to_number"],
        "handled_by": row["handled_by"],
        "user_id": row["user_id"],
        "started_at": isoformat(row["started_at"]),
        "ended_at": isoformat(row["ended_at"]),
        "duration_seconds": row["duration_seconds"],
        "disposition": row["disposition"],
        "summary": row["summary"],
        "has_recording": row["recording_key"] is not None,
        "provider_call_id": row["provider_call_id"],
    }
