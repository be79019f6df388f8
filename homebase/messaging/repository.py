"""Message, suppression and sender-number queries. Every statement starts from the
TenantSession; the worker's cross-workspace claim lives in jobs.py."""

from datetime import datetime
from typing import Any, cast

from sqlalchemy import bindparam, or_

from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession, tenant_select
from homebase.kit.ids import new_id
from homebase.kit.masking import mask_freeform
from homebase.kit.statements import AnySelect
from homebase.messaging.records import (
    MessageChanges,
    MessageRecord,
    SenderNumberRecord,
    SuppressionRecord,
)
from homebase.messaging.render import mask_address
from homebase.messaging.schemas import MessageFilters
from homebase.models import Contact, Message, SenderNumber, Suppression, VoiceCall
from homebase.paging.listing import Listing

messages = Message.__table__
suppressions = Suppression.__table__
sender_numbers = SenderNumber.__table__
voice_calls = VoiceCall.__table__
contacts = Contact.__table__


async def get(session: TenantSession, message_id: str) -> MessageRecord | None:
    row = await session.fetch_one(session.select(messages).where(messages.c.id == message_id))
    return cast("MessageRecord | None", row)


async def insert(session: TenantSession, values: MessageRecord) -> None:
    await session.insert(messages, values)


async def update(
    session: TenantSession, message_id: str, values: MessageChanges, **conditions: Any
) -> int:
    statement = session.update(messages).where(messages.c.id == message_id)
    for column, value in conditions.items():
        statement = statement.where(messages.c[column] == value)
    return await session.execute(statement.values(**values))


def filtered(session: TenantSession, filters: MessageFilters) -> AnySelect:
    """The list's select with its filters (updated_after aside: paging/changes.py)."""
    statement = session.select(messages)
    if filters.contact_id is not None:
        statement = statement.where(messages.c.contact_id == filters.contact_id)
    for name in ("channel", "direction", "status"):
        value = getattr(filters, name)
        if value is not None:
            statement = statement.where(messages.c[name] == value.value)
    return statement


def listing(session: TenantSession, filters: MessageFilters) -> Listing[MessageRecord]:
    """GET /v1/messages: newest first, and its `updated_after` walk (paging/listing.py)."""
    return Listing.synced(filtered(session, filters), messages, session.dialect)


# Kept statements (built once, their compiled form cached): the inbound callback runs
# them for every text it records.
_INBOUND_BY_PROVIDER_ID = (
    tenant_select(messages)
    .where(
        messages.c.provider_message_id == bindparam("provider_id"),
        messages.c.direction == "INBOUND",
    )
    .limit(1)
)
_CONTACT_BY = {
    column: tenant_select(contacts)
    .where(contacts.c.anonymized_at.is_(None), contacts.c[column] == bindparam("address"))
    .order_by(contacts.c.id)
    .limit(1)
    for column in ("phone_e164", "email_lower")
}


async def inbound_by_provider_id(
    session: TenantSession, provider_message_id: str
) -> MessageRecord | None:
    row = await session.fetch_one(_INBOUND_BY_PROVIDER_ID, {"provider_id": provider_message_id})
    return cast("MessageRecord | None", row)


async def outbound_by_provider_id(
    session: TenantSession, provider_message_id: str
) -> MessageRecord | None:
    row = await session.fetch_one(
        session.select(messages).where(
            messages.c.provider_message_id == provider_message_id,
            messages.c.direction == "OUTBOUND",
        )
    )
    return cast("MessageRecord | None", row)


async def contact_by_address(
    session: TenantSession, *, phone_e164: str | None = None, email_lower: str | None = None
) -> ContactRecord | None:
    """The workspace's first (oldest) contact, not erased, with this E.164 number or
    lower-cased email (the first one given)."""
    if phone_e164:
        row = await session.fetch_one(_CONTACT_BY["phone_e164"], {"address": phone_e164})
    elif email_lower:
        row = await session.fetch_one(_CONTACT_BY["email_lower"], {"address": email_lower})
    else:
        return None
    return cast("ContactRecord | None", row)


async def active_suppression(session: TenantSession, address: str) -> SuppressionRecord | None:
    row = await session.fetch_one(
        session.select(suppressions)
        .where(suppressions.c.address == address, suppressions.c.lifted_at.is_(None))
        .order_by(suppressions.c.id.desc())
        .limit(1)
    )
    return cast("SuppressionRecord | None", row)


async def suppress(
    session: TenantSession,
    *,
    kind: str,
    address: str,
    reason: str,
    evidence: dict[str, Any],  # free-form JSON (SuppressionRecord)
) -> tuple[str, bool]:
    """The active suppression of `address` (its canonical form, as the gate compares it),
    made now with its evidence unless one exists: (its id, whether it was made now). An
    opt-out repeated (a second STOP, a mailbox provider retrying) changes nothing."""
    existing = await active_suppression(session, address)
    if existing is not None:
        return existing["id"], False
    row: SuppressionRecord = {
        "id": new_id("sup"),
        "kind": kind,
        "address": address,
        "reason": reason,
        "evidence": evidence,
        "created_at": session.now(),
        "lifted_at": None,
        "lifted_evidence": None,
    }
    await session.insert(suppressions, row)
    return row["id"], True


async def suppression(session: TenantSession, suppression_id: str) -> SuppressionRecord | None:
    row = await session.fetch_one(
        session.select(suppressions).where(suppressions.c.id == suppression_id)
    )
    return cast("SuppressionRecord | None", row)


def opted_out_at(row: SuppressionRecord) -> datetime:
    """When the text that made an opt-out suppression arrived (its evidence), else when
    the suppression was made."""
    created = row["created_at"]
    received = (row["evidence"] or {}).get("received_at")
    try:
        return datetime.fromisoformat(received) if isinstance(received, str) else created
    except ValueError:
        return created


async def confirmation_of(session: TenantSession, inbound: MessageRecord) -> MessageRecord | None:
    """The confirmation of the opt-out this inbound text made, if it made the number's
    active suppression and that has one."""
    address = inbound["from_address"]
    active = await active_suppression(session, address) if address else None
    if active is None or (active["evidence"] or {}).get("message_id") != inbound["id"]:
        return None
    row = await session.fetch_one(
        session.select(messages).where(messages.c.confirms_suppression_id == active["id"])
    )
    return cast("MessageRecord | None", row)


async def lift_suppressions(
    session: TenantSession,
    address: str,
    now: datetime,
    evidence: dict[str, Any],  # free-form JSON (SuppressionRecord)
) -> int:
    return await session.execute(
        session.update(suppressions)
        .where(suppressions.c.address == address, suppressions.c.lifted_at.is_(None))
        .values(lifted_at=now, lifted_evidence=evidence)
    )


async def proactive_since(
    session: TenantSession, address: str, since: datetime, *, leave_out: str | None = None
) -> list[datetime]:
    """When this workspace's proactive texts and AI calls to `address` were made since
    `since`, a refused one (a text FAILED with a gate's reason, a call `refused`) not
    counted: what a state's attempt limit counts (compliance/lawful_hours.py), for texts
    and calls alike."""
    statement = session.select(messages, messages.c.created_at).where(
        messages.c.counterpart == address,
        messages.c.direction == "OUTBOUND",
        messages.c.created_at >= since,
        messages.c.proactive.is_(True),
        messages.c.blocked_reason.is_(None),
    )
    if leave_out is not None:
        statement = statement.where(messages.c.id != leave_out)
    calls = session.select(voice_calls, voice_calls.c.created_at).where(
        voice_calls.c.to_number == address,
        voice_calls.c.direction == "outbound",
        voice_calls.c.created_at >= since,
        voice_calls.c.status != "refused",
    )
    texts = [row["created_at"] for row in await session.fetch_all(statement)]
    return texts + [row["created_at"] for row in await session.fetch_all(calls)]


async def wrote_since(session: TenantSession, address: str, since: datetime) -> bool:
    """Whether an inbound message came from this address since the given moment."""
    row = await session.fetch_one(
        session.select(messages, messages.c.id)
        .where(
            messages.c.counterpart == address,
            messages.c.direction == "INBOUND",
            messages.c.created_at >= since,
        )
        .limit(1)
    )
    return row is not None


async def sender_numbers_for(session: TenantSession, channel: str) -> list[SenderNumberRecord]:
    rows = await session.fetch_all(
        session.select(sender_numbers)
        .where(sender_numbers.c.channel == channel.lower())
        .order_by(sender_numbers.c.created_at, sender_numbers.c.id)
    )
    return cast("list[SenderNumberRecord]", rows)


async def scrub_for_contact(session: TenantSession, contact_id: str) -> None:
    """Bodies and subjects go; the contact's own address is replaced by its mask, and so
    is any phone or address quoted in a failure reason. What was still queued for the
    contact is failed: there is nothing left to send."""
    now = session.now()
    await session.execute(
        session.update(messages)
        .where(messages.c.contact_id == contact_id, messages.c.status == "QUEUED")
        .values(
            status="FAILED",
            failed_at=now,
            updated_at=now,
            failure_reason="The contact was anonymized before it was sent.",
        )
    )
    # Every rewrite below stamps updated_at, so a client keeping a copy in step
    # (`updated_after`, docs/sync.md) is served the scrubbed message; a repeated erasure
    # that finds nothing left to scrub stamps nothing.
    await session.execute(
        session.update(messages)
        .where(
            messages.c.contact_id == contact_id,
            or_(
                messages.c.body.is_not(None),
                messages.c.subject.is_not(None),
                messages.c.counterpart.is_not(None),
            ),
        )
        .values(body=None, subject=None, counterpart=None, updated_at=now)
    )
    for column, direction in (("to_address", "OUTBOUND"), ("from_address", "INBOUND")):
        rows = await session.fetch_all(
            session.select(messages, messages.c.id, messages.c[column]).where(
                messages.c.contact_id == contact_id, messages.c.direction == direction
            )
        )
        for row in rows:
            address = mask_address(row[column])
            if address != row[column]:
                await session.execute(
                    session.update(messages)
                    .where(messages.c.id == row["id"])
                    .values(**{column: address, "updated_at": now})
                )
    # A provider's refusal is kept as it said it, and may quote the number or address
    # ("The 'To' number +14155550142 is not a valid phone number"): masked by value.
    failures = await session.fetch_all(
        session.select(messages, messages.c.id, messages.c.failure_reason).where(
            messages.c.contact_id == contact_id, messages.c.failure_reason.is_not(None)
        )
    )
    for row in failures:
        masked = mask_freeform(row["failure_reason"])
        if masked != row["failure_reason"]:
            await session.execute(
                session.update(messages)
                .where(messages.c.id == row["id"])
                .values(failure_reason=masked, updated_at=now)
            )
