"""Rows to wire payloads. Addresses are masked unless the credential holds
contacts:read:pii; event payloads are always masked."""

from typing import cast

from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_email, mask_phone
from homebase.messaging.records import MessageEventData, MessageRecord
from homebase.messaging.schemas import Message, MessageChannel, MessageDirection, MessageStatus


def mask_address(address: str | None) -> str | None:
    if not address:
        return address
    return mask_email(address) if "@" in address else mask_phone(address)


def _shown(address: str | None) -> str | None:
    return address


def message(row: MessageRecord, *, pii: bool) -> Message:
    show = _shown if pii else mask_address
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        # stored as the enums' values, which are what the wire sends
        "channel": cast(MessageChannel, row["channel"]),
        "direction": cast(MessageDirection, row["direction"]),
        "status": cast(MessageStatus, row["status"]),
        "from": show(row["from_address"]),
        "to": show(row["to_address"]),
        "subject": row["subject"],
        "body": row["body"],
        "ai_generated": row["ai_generated"],
        "proactive": row["proactive"],
        "blocked_reason": row["blocked_reason"],
        "failure_reason": row["failure_reason"],
        "provider": row["provider"],
        "pii_masked": not pii,
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
        "sent_at": isoformat(row["sent_at"]),
        "delivered_at": isoformat(row["delivered_at"]),
        "failed_at": isoformat(row["failed_at"]),
        "received_at": isoformat(row["received_at"]),
    }


def event_data(row: MessageRecord) -> MessageEventData:
    """message.sent / message.received data, stored whole: a delivery masks the addresses
    (webhooks/render.masked), the events API too unless the credential holds
    contacts:read:pii."""
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        "channel": row["channel"],
        "direction": row["direction"],
        "status": row["status"],
        "ai_generated": row["ai_generated"],
        "from": row["from_address"],
        "to": row["to_address"],
    }
