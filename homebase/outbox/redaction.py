"""Which event data is about a contact, and what of it goes when the contact is anonymized.

The webhook worker builds every delivery body from `outbox_events.data` at send time, so a
pending delivery, a retry or a redelivery after DELETE /contacts/{id} would send what was
erased unless the stored data is scrubbed too (outbox.service.scrub_contact_events). The
rules mirror how each domain scrubs its own rows (erasure/registry.py); members keep
their names and documented types (webhooks/catalogue_docs.py): a non-null string becomes
REDACTED, a nullable member null. Deals survive anonymization unscrubbed, so their events do.
"""

from collections.abc import Callable, Mapping
from typing import Any

from homebase.kit.masking import mask_email, mask_phone
from homebase.outbox.catalogue import EVENT_SCOPES

REDACTED = "[redacted]"


class Nested:
    """A member holding another payload (lead.assigned's `lead`), scrubbed by `rule`."""

    def __init__(self, rule: dict[str, Any]):
        self.rule = rule


def _other_party(direction: str) -> Callable[[dict[str, Any], str], Any]:
    """The call row loses the other party's number (calls/repository.py scrub_for_contact):
    `from` of an inbound call, `to` of an outbound one; our own number stays."""

    def replace(data: dict[str, Any], member: str) -> Any:
        return None if data.get("direction") == direction else data[member]

    return replace


_CONTACT: dict[str, Any] = {
    "first_name": None,
    "last_name": None,
    "email": None,
    "phone": None,
    "phone_e164": None,
    "notes": None,
    "custom_fields": {},
}
# leads/repository.py erase: names, email, consent and context go. The row keeps the masked
# number because its column is required; the event's member is nullable, so it goes too.
_LEAD: dict[str, Any] = {
    "first_name": None,
    "last_name": None,
    "email": None,
    "phone": None,
    "phone_e164": None,
    "context": {},
    "consent_id": None,
    "consent_expires_at": None,
    "ai_outbound_allowed": False,
}
_APPOINTMENT: dict[str, Any] = {"title": REDACTED, "location": None}


def _masked_address(data: dict[str, Any], member: str) -> Any:
    """A message's address as the scrubbed message row keeps it: masked
    (messaging/repository.py scrub_for_contact)."""
    address = data[member]
    if not isinstance(address, str):
        return address
    return mask_email(address) if "@" in address else mask_phone(address)


# Events are stored whole (webhooks/render.masked masks them as they leave); messages
# carry their addresses and no body, so an erasure masks the addresses as it does the rows.
_MESSAGE: dict[str, Any] = {"from": _masked_address, "to": _masked_address}

# Every catalogue event has an entry, empty when nothing in it is personal, so a new event
# type has to decide (checked below). Deal titles stay because deals survive
# (docs/webhooks.md).
RULES: dict[str, dict[str, Any]] = {
    "contact.created": _CONTACT,
    "contact.updated": _CONTACT,
    "contact.stage_changed": {},
    "contact.tag_added": {},
    "lead.created": _LEAD,
    "lead.assigned": {"lead": Nested(_LEAD)},
    "message.received": _MESSAGE,
    "message.sent": _MESSAGE,
    "call.completed": {
        "summary": None,
        "transcript": None,
        "has_recording": False,
        "from": _other_party("inbound"),
        "to": _other_party("outbound"),
    },
    "deal.stage_changed": {},
    "document.signed": {"name": REDACTED, "signer_name": None},
    "appointment.booked": _APPOINTMENT,
    "appointment.rescheduled": _APPOINTMENT,
    "appointment.outcome": _APPOINTMENT,
    "automation.run": {},
    "saved_search.sent": {"name": REDACTED},
    # The summary quotes the lead and what was learned; the task's notes go the same way
    # (tasks.scrub_contact_tasks).
    "ai.handoff": {"summary": REDACTED},
}
assert set(RULES) == set(EVENT_SCOPES), "every catalogue event has a redaction rule"


def _apply(data: dict[str, Any], rule: dict[str, Any]) -> dict[str, Any]:
    # Only members present are replaced: the payload keeps exactly its documented shape.
    scrubbed = dict(data)
    for member, replacement in rule.items():
        if member not in scrubbed:
            continue
        if isinstance(replacement, Nested):
            if isinstance(scrubbed[member], dict):
                scrubbed[member] = _apply(scrubbed[member], replacement.rule)
        elif callable(replacement):
            scrubbed[member] = replacement(data, member)
        else:
            # A fresh container each time: rows must not share one mutable value.
            scrubbed[member] = dict(replacement) if isinstance(replacement, dict) else replacement
    return scrubbed


def redact(event_type: str, data: dict[str, Any]) -> dict[str, Any]:
    """`data` of an event about an anonymized contact, without that person's data."""
    return _apply(data, RULES.get(event_type, {}))


def contact_of(event_type: str, data: Mapping[str, Any]) -> str | None:
    """The contact an event is about: its `contact_id`, or a contact event's own `id`.
    Called by every emit, so it only looks at two members."""
    contact_id = data.get("contact_id")
    if isinstance(contact_id, str):
        return contact_id
    if event_type.startswith("contact."):
        own = data.get("id")
        return own if isinstance(own, str) else None
    return None
