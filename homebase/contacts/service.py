"""The contact rules: creation, updates with their events, notes, and the contact's own
part of an erasure (the whole erasure is homebase/erasure/).

Services never commit: the request's transaction does, so the change, its timeline
entries and its outbox events land together or not at all.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple, cast

from homebase.contacts import render, repository, timeline
from homebase.contacts.records import ContactChanges, ContactRecord, TimelineRecord
from homebase.contacts.schemas import ContactAiPauseReason, ContactCreate, ContactUpdate
from homebase.custom_fields import service as custom
from homebase.custom_fields.definitions import Definitions
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import Conflict, NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.phones import DEFAULT_REGION, to_e164
from homebase.outbox.redaction import REDACTED  # one placeholder for rows and events
from homebase.outbox.service import Event, emit_many
from homebase.workspaces import references
from homebase.workspaces.lead_policy import phone_region


class ContactErased(Conflict):
    code = "contact_erased"
    message = "The contact's personal data was erased; it takes no new data."


def derived(values: ContactChanges, *, region: str = DEFAULT_REGION) -> ContactChanges:
    """Columns kept in step with what the client writes, for matching and search: the
    canonical email (lower case) and phone (E.164, a number without a country code read
    in `region`: the workspace's default_phone_region), which an import matches on too."""
    columns: ContactChanges = {}
    if "email" in values:
        email = values["email"]
        columns["email_lower"] = email.lower() if email else None
    if "phone" in values:
        columns["phone_e164"] = to_e164(values["phone"], region)
    return columns


async def get_or_404(session: TenantSession, contact_id: str) -> ContactRecord:
    row = await repository.get(session, contact_id)
    if row is None:
        raise NotFound("No such contact.")
    return row


def _tags_added(contact_id: str, tags: list[str], all_tags: list[str]) -> list[Event]:
    return [("contact.tag_added", {"id": contact_id, "tag": tag, "tags": all_tags}) for tag in tags]


OWNER_REFUSAL = references.NOT_A_MEMBER


async def definitions(session: TenantSession, *, sent: object = True) -> Definitions:
    """The workspace's live custom fields of contacts: what checks and renders a contact.
    `sent`: a new contact's custom_fields; without any, none are read (a contact without
    values checks and renders the same under every definition, so the read would be
    work for nothing on every create)."""
    if not sent:
        return Definitions("contacts")
    return await custom.load_definitions(session, "contacts")


async def refusals(
    session: TenantSession,
    rows: Sequence[ContactCreate],
    *,
    fields: Definitions,
    owner_checked: bool = False,
) -> list[list[tuple[str, str]]]:
    """What the rules (beyond the schema) refuse in each new contact, as (field, message)
    pairs: one list per row, empty when the row is accepted. The one check of a new
    contact, for one (create_contact) or many (an import's batch, homebase/imports/), so
    both refuse the same things with the same words; a rule added for new contacts is
    added here. An owner who is not a member (unless `owner_checked`: the caller picked
    the owner among the members), custom_fields that `fields` refuse. One query whatever
    the number of rows."""
    members = (
        set()
        if owner_checked
        else await references.members_among(
            session, {row.owner_id for row in rows if row.owner_id is not None}
        )
    )
    refused = []
    for row in rows:
        failures = []
        if not owner_checked and row.owner_id is not None and row.owner_id not in members:
            failures.append(("owner_id", OWNER_REFUSAL))
        failures += fields.write(None, row.custom_fields)[1]
        refused.append(failures)
    return refused


def new_row(
    session: TenantSession,
    data: ContactCreate,
    *,
    fields: Definitions,
    region: str = DEFAULT_REGION,
) -> ContactRecord:
    """The contacts row a create writes (not yet written), for one create or a batch;
    `data` passed `refusals`; `region`: the workspace's phone_region."""
    now = session.now()
    clean, _ = fields.validate(data.custom_fields)
    values: ContactChanges = {
        "first_name": data.first_name,
        "last_name": data.last_name,
        "email": data.email,
        "phone": data.phone,
        "stage": data.stage.value,
        "source": data.source,
        "tags": data.tags,
        "notes": data.notes,
        "owner_id": data.owner_id,
    }
    return {
        "id": new_id("con"),
        "first_name": data.first_name,
        "last_name": data.last_name,
        "email": data.email,
        "email_lower": None,
        "phone": data.phone,
        "phone_e164": None,
        "stage": data.stage.value,
        "source": data.source,
        "tags": data.tags,
        "notes": data.notes,
        "owner_id": data.owner_id,
        **derived(values, region=region),
        "custom_fields": fields.merged(None, clean),
        "ai_paused_at": None,
        "ai_paused_reason": None,
        "anonymized_at": None,
        "created_at": now,
        "updated_at": now,
    }


def created_events(row: ContactRecord, fields: Definitions) -> list[Event]:
    """The events of a new contact, in order: contact.created, then a tag_added per tag."""
    created = ("contact.created", render.contact(row, pii=True, custom=fields))
    return [created, *_tags_added(row["id"], row["tags"], row["tags"])]


async def create_contact(
    session: TenantSession,
    data: ContactCreate,
    *,
    owner_is_member: bool = False,
    fields: Definitions | None = None,
) -> ContactRecord:
    """`owner_is_member`: the caller picked the owner among the members (a lead's
    assignee), so it is not looked up again. `fields`: the custom fields, when the
    caller loaded them already; custom_fields are checked against them (400 naming
    custom_fields.<key>)."""
    if fields is None:
        fields = await definitions(session, sent=data.custom_fields)
    (refused,) = await refusals(session, [data], fields=fields, owner_checked=owner_is_member)
    if refused:
        raise ValidationFailed.for_fields(refused)
    region = await phone_region(session) if data.phone else DEFAULT_REGION
    row = new_row(session, data, fields=fields, region=region)
    # The contact and its events, in order, in one statement.
    await emit_many(session, created_events(row, fields), beside=(repository.contacts, [row]))
    await custom.write_new_values(
        session, fields, records=[(row["id"], row["custom_fields"] or {})]
    )
    return row


def requested(
    data: ContactCreate | ContactUpdate, current: ContactRecord, *, fields: Definitions
) -> ContactChanges:
    """The members a body gave, as column values: what a PATCH (or an import's row
    matching a contact) asks to change. custom_fields merges into the contact's: a key
    sent replaces its value, null removes it (400 naming custom_fields.<key> for a value
    its field refuses, custom_fields when the contact's values would outgrow their bound)."""
    sent = data.model_fields_set
    # the members the body gave, by the names of their columns
    values = cast(ContactChanges, data.model_dump(include=sent - {"custom_fields"}))
    if "stage" in values:
        values["stage"] = data.stage.value
    if "custom_fields" in sent:
        stored = current["custom_fields"]
        merged = custom.written(fields, stored, values=data.custom_fields)
        # Only a change of a live field's value is a change (stored JSON may differ in
        # keys of deleted fields, which nothing shows).
        values["custom_fields"] = merged if fields.changed_keys(stored, merged) else stored
    return values


def differing(current: ContactRecord, wanted: ContactChanges) -> ContactChanges:
    """The requested values that differ from the contact's."""
    # wanted's members, each a column of ContactRecord
    differ = {key: value for key, value in wanted.items() if current.get(key) != value}
    return cast(ContactChanges, differ)


class Effects(NamedTuple):
    """What an update writes: the columns, the timeline entries, the events (in order)."""

    values: ContactChanges
    timeline: list[TimelineRecord]
    events: list[Event]


def update_effects(
    session: TenantSession,
    current: ContactRecord,
    *,
    wanted: ContactChanges,
    changes: ContactChanges,
    fields: Definitions,
    region: str = DEFAULT_REGION,
) -> Effects:
    """The writes of an update whose `changes` (non-empty, from `differing`) were checked,
    for one PATCH or an import's batch: the same columns, entries and events either way.
    `region`: the workspace's phone_region."""
    values: ContactChanges = {
        **changes,
        **derived(changes, region=region),
        "updated_at": session.now(),
    }
    updated: ContactRecord = {**current, **values}
    changed_fields = sorted(key for key in wanted if key in changes)
    events: list[Event] = [
        (
            "contact.updated",
            {**render.contact(updated, pii=True, custom=fields), "changed": changed_fields},
        )
    ]
    entries = []
    if "stage" in changes:
        stage = changes["stage"]
        entry, event = _stage_change(session, current["id"], current["stage"], stage)
        entries.append(entry)
        events.append(event)
    if "tags" in changes:
        tags = changes["tags"]
        added = [tag for tag in tags if tag not in current["tags"]]
        events += _tags_added(current["id"], added, tags)
    return Effects(values, entries, events)


async def write_update(
    session: TenantSession, current: ContactRecord, *, effects: Effects, fields: Definitions
) -> None:
    """The contact's row and its custom values as `effects` say (its entries and events
    are the caller's: a batch writes them together)."""
    await repository.update(session, current["id"], effects.values)
    if "custom_fields" in effects.values:
        await custom.write_changed_values(
            session,
            fields,
            record_id=current["id"],
            before=current["custom_fields"],
            after=effects.values["custom_fields"] or {},
        )


async def update_contact(
    session: TenantSession,
    contact_id: str,
    *,
    patch: ContactUpdate,
    fields: Definitions | None = None,
) -> ContactRecord:
    """`fields` as for create_contact."""
    current = await writable(session, contact_id)
    fields = fields if fields is not None else await definitions(session)
    wanted = requested(patch, current, fields=fields)
    changes = differing(current, wanted)
    if not changes:
        return current
    if "owner_id" in changes:
        await references.check_owner(session, changes["owner_id"])
    region = await phone_region(session) if changes.get("phone") else DEFAULT_REGION
    effects = update_effects(
        session, current, wanted=wanted, changes=changes, fields=fields, region=region
    )
    await write_update(session, current, effects=effects, fields=fields)
    if effects.timeline:
        await timeline.record_many(session, effects.timeline)
    await emit_many(session, effects.events)
    updated: ContactRecord = {**current, **effects.values}
    return updated


def _stage_change(
    session: TenantSession, contact_id: str, previous: str, stage: str
) -> tuple[TimelineRecord, Event]:
    """The timeline entry (not yet written) and the event of a stage change."""
    data = {"previous_stage": previous, "stage": stage}
    entry = timeline.entry(
        session, contact_id, "stage_changed", f"Stage changed from {previous} to {stage}", data=data
    )
    return entry, ("contact.stage_changed", {"id": contact_id, **data})


async def add_note(session: TenantSession, contact_id: str, *, body: str) -> TimelineRecord:
    """A note pauses the contact's AI auto-response: a human has stepped in."""
    contact = await writable(session, contact_id)
    event = await timeline.record(session, contact_id, "note", "Note added", body=body)
    await set_ai_pause(session, contact, reason=PAUSE_NOTE, at=event["occurred_at"])
    return event


# Why the AI stopped answering a contact (docs/ai.md, "Human takeover and resume"); the
# values are the response's enum (schemas.ContactAiPauseReason), so the two cannot drift.
PAUSE_NOTE = ContactAiPauseReason.NOTE.value
PAUSE_HUMAN_MESSAGE = ContactAiPauseReason.HUMAN_MESSAGE.value
PAUSE_HANDOFF = ContactAiPauseReason.HANDOFF.value
PAUSE_DAILY_LIMIT = ContactAiPauseReason.DAILY_LIMIT.value
PAUSE_MANUAL = ContactAiPauseReason.MANUAL.value
PAUSE_OPT_OUT = ContactAiPauseReason.OPT_OUT.value
PAUSE_REASONS = tuple(reason.value for reason in ContactAiPauseReason)


async def set_ai_pause(
    session: TenantSession,
    contact: ContactRecord,
    *,
    reason: str | None,
    at: datetime | None = None,
) -> ContactRecord:
    """Pause the contact's AI auto-response with `reason`, or resume it (None); the
    contact as it now is. A contact already in that state is left alone: a pause keeps
    its first reason and time, and nothing is emitted. A change emits contact.updated
    naming the fields that changed. `at`: the moment of what paused it (a note's
    occurred_at, a message's created_at), so the pause reads as the same moment."""
    paused = contact["ai_paused_at"] is not None
    if (reason is not None) == paused:
        return contact
    now = at or session.now()
    changes: ContactChanges = {
        "ai_paused_at": now if reason is not None else None,
        "ai_paused_reason": reason,
        "updated_at": now,
    }
    if not await repository.switch_ai_pause(
        session, contact["id"], changes, pausing=reason is not None
    ):
        # Another request switched it between the read and this write: theirs stands.
        fresh = await repository.get(session, contact["id"])
        return fresh if fresh is not None else contact
    updated: ContactRecord = {**contact, **changes}
    changed = [
        "ai_auto_response_paused",
        "ai_auto_response_paused_at",
        "ai_auto_response_paused_reason",
    ]
    shown = render.contact(updated, pii=True, custom=await definitions(session))
    await emit_many(session, [("contact.updated", {**shown, "changed": changed})])
    return updated


async def switch_ai(
    session: TenantSession, contact_id: str, *, reason: str | None
) -> ContactRecord:
    """POST /contacts/{id}/ai/pause (reason manual) and .../ai/resume (None): the
    contact's AI switch, addressed by its path, so an erased contact is 409."""
    return await set_ai_pause(session, await writable(session, contact_id), reason=reason)


async def writable(session: TenantSession, contact_id: str) -> ContactRecord:
    """The contact, for a write addressed to it by its path (PATCH, a note, and any
    sub-resource added later): 404 as get_or_404, 409 contact_erased once DELETE erased
    it. New data written into an erased contact would undo the erasure. Writes that name
    a contact in their body are refused as 400 instead (workspaces/references.py)."""
    contact = await get_or_404(session, contact_id)
    if contact["anonymized_at"] is not None:
        raise ContactErased(details={"contact_id": contact_id})
    return contact


_SCRUBBED = ("first_name", "last_name", "email", "email_lower", "phone", "phone_e164", "notes")


async def scrub_contact(session: TenantSession, contact_id: str) -> None:
    """The erasure's first scrubber (erasure/registry.py): names, email, phone and notes
    go, `anonymized_at` is set once, by the first erasure. A repeat writes only what is
    not already null, so nothing changes (not even updated_at) unless a path wrote into
    the erased row in between."""
    contact = await get_or_404(session, contact_id)
    scrubbed = cast(  # of _SCRUBBED, the columns of ContactRecord that may be null
        ContactChanges, {name: None for name in _SCRUBBED if contact.get(name) is not None}
    )
    if contact["anonymized_at"] is None:
        scrubbed["anonymized_at"] = session.now()
    if scrubbed:
        scrubbed["updated_at"] = session.now()
        await repository.update(session, contact_id, scrubbed)


async def scrub_timeline(session: TenantSession, contact_id: str) -> None:
    """Every entry keeps its type, time and actor; its title becomes REDACTED, its body
    and data go (they quote notes, message bodies, titles)."""
    await repository.scrub_timeline(session, contact_id, REDACTED)
