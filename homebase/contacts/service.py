"""The contact rules: creation, updates with their events, notes, and the contact's own
part of an erasure (the whole erasure is homebase/erasure/).

Services never commit: the request's transaction does, so the change, its timeline
entries and its outbox events land together or not at all.
"""

from datetime import datetime
from typing import Any

from homebase.contacts import render, repository, timeline
from homebase.contacts.schemas import ContactAiPauseReason, ContactCreate, ContactUpdate
from homebase.custom_fields import service as custom
from homebase.custom_fields.definitions import Definitions
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import Conflict, NotFound
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.outbox.redaction import REDACTED  # one placeholder for rows and events
from homebase.outbox.service import emit_many
from homebase.workspaces import references


class ContactErased(Conflict):
    code = "contact_erased"
    message = "The contact's personal data was erased; it takes no new data."


def _derived(values: dict[str, Any]) -> dict[str, Any]:
    """Columns kept in step with what the client writes, for matching and search."""
    derived = {}
    if "email" in values:
        derived["email_lower"] = values["email"].lower() if values["email"] else None
    if "phone" in values:
        derived["phone_e164"] = to_e164(values["phone"])
    return derived


async def get_or_404(session: TenantSession, contact_id: str) -> dict[str, Any]:
    row = await repository.get(session, contact_id)
    if row is None:
        raise NotFound("No such contact.")
    return row


def _tags_added(
    contact_id: str, tags: list[str], all_tags: list[str]
) -> list[tuple[str, dict[str, Any]]]:
    return [("contact.tag_added", {"id": contact_id, "tag": tag, "tags": all_tags}) for tag in tags]


async def definitions(session: TenantSession) -> Definitions:
    """The workspace's live custom fields of contacts: what renders a contact."""
    return await custom.load_definitions(session, "contacts")


async def create_contact(
    session: TenantSession,
    data: ContactCreate,
    *,
    owner_is_member: bool = False,
    fields: Definitions | None = None,
) -> dict[str, Any]:
    """`owner_is_member`: the caller picked the owner among the members (a lead's
    assignee), so it is not looked up again. `fields`: the custom fields, when the
    caller loaded them already (a batch of creates needs them once); its custom_fields
    are checked against them (400 naming custom_fields.<key>)."""
    fields = fields if fields is not None else await definitions(session)
    clean = custom.checked(fields, data.custom_fields)
    if not owner_is_member:
        await references.check_owner(session, data.owner_id)
    now = session.now()
    values = data.model_dump(exclude={"custom_fields"})
    values["stage"] = data.stage.value
    stored_custom = fields.merged(None, clean)
    row = {
        "id": new_id("con"),
        **values,
        **_derived(values),
        "custom_fields": stored_custom,
        "ai_paused_at": None,
        "ai_paused_reason": None,
        "anonymized_at": None,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert(session, row)
    await custom.write_new_values(session, fields, [(row["id"], stored_custom)])
    created = ("contact.created", render.contact(row, pii=False, custom=fields))
    # One statement for the contact's events, in order.
    await emit_many(session, [created, *_tags_added(row["id"], row["tags"], row["tags"])])
    return row


async def update_contact(
    session: TenantSession,
    contact_id: str,
    patch: ContactUpdate,
    *,
    fields: Definitions | None = None,
) -> dict[str, Any]:
    """`fields` as for create_contact. custom_fields merges: a key sent replaces its
    value, null removes it."""
    current = await writable(session, contact_id)
    fields = fields if fields is not None else await definitions(session)
    sent = patch.model_fields_set
    requested = patch.model_dump(include=sent - {"custom_fields"})
    if "stage" in requested:
        requested["stage"] = patch.stage.value
    changes = {key: value for key, value in requested.items() if current[key] != value}
    if "custom_fields" in sent:
        merged = fields.merged(
            current.get("custom_fields"), custom.checked(fields, patch.custom_fields)
        )
        if fields.changed_keys(current.get("custom_fields"), merged):
            changes["custom_fields"] = merged
            requested["custom_fields"] = merged
    if not changes:
        return current
    if "owner_id" in changes:
        await references.check_owner(session, changes["owner_id"])
    changes.update(_derived(changes))
    changes["updated_at"] = session.now()
    await repository.update(session, contact_id, changes)
    if "custom_fields" in changes:
        await custom.write_changed_values(
            session, fields, contact_id, current.get("custom_fields"), changes["custom_fields"]
        )
    updated = {**current, **changes}

    changed_fields = sorted(key for key in requested if key in changes)
    events = [
        (
            "contact.updated",
            {**render.contact(updated, pii=False, custom=fields), "changed": changed_fields},
        )
    ]
    if "stage" in changes:
        events.append(
            await _record_stage_change(session, contact_id, current["stage"], changes["stage"])
        )
    if "tags" in changes:
        added = [tag for tag in changes["tags"] if tag not in current["tags"]]
        events += _tags_added(contact_id, added, changes["tags"])
    await emit_many(session, events)
    return updated


async def _record_stage_change(
    session: TenantSession, contact_id: str, previous: str, stage: str
) -> tuple[str, dict[str, Any]]:
    """The timeline entry, written; the event, returned for the caller's one emit."""
    data = {"previous_stage": previous, "stage": stage}
    await timeline.record(
        session, contact_id, "stage_changed", f"Stage changed from {previous} to {stage}", data=data
    )
    return ("contact.stage_changed", {"id": contact_id, **data})


async def add_note(session: TenantSession, contact_id: str, body: str) -> dict[str, Any]:
    """A note pauses the contact's AI auto-response: a human has stepped in."""
    contact = await writable(session, contact_id)
    event = await timeline.record(session, contact_id, "note", "Note added", body=body)
    await set_ai_pause(session, contact, PAUSE_NOTE, at=event["occurred_at"])
    return event


# Why the AI stopped answering a contact (docs/ai.md, "Human takeover and resume"); the
# values are the response's enum (schemas.ContactAiPauseReason), so the two cannot drift.
PAUSE_NOTE = ContactAiPauseReason.NOTE.value
PAUSE_HUMAN_MESSAGE = ContactAiPauseReason.HUMAN_MESSAGE.value
PAUSE_HANDOFF = ContactAiPauseReason.HANDOFF.value
PAUSE_DAILY_LIMIT = ContactAiPauseReason.DAILY_LIMIT.value
PAUSE_MANUAL = ContactAiPauseReason.MANUAL.value
PAUSE_REASONS = tuple(reason.value for reason in ContactAiPauseReason)


async def set_ai_pause(
    session: TenantSession,
    contact: dict[str, Any],
    reason: str | None,
    *,
    at: datetime | None = None,
) -> dict[str, Any]:
    """Pause the contact's AI auto-response with `reason`, or resume it (None); the
    contact as it now is. A contact already in that state is left alone: a pause keeps
    its first reason and time, and nothing is emitted. A change emits contact.updated
    naming the fields that changed. `at`: the moment of what paused it (a note's
    occurred_at, a message's created_at), so the pause reads as the same moment."""
    paused = contact["ai_paused_at"] is not None
    if (reason is not None) == paused:
        return contact
    now = at or session.now()
    changes = {
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
    updated = {**contact, **changes}
    changed = [
        "ai_auto_response_paused",
        "ai_auto_response_paused_at",
        "ai_auto_response_paused_reason",
    ]
    shown = render.contact(updated, pii=False, custom=await definitions(session))
    await emit_many(session, [("contact.updated", {**shown, "changed": changed})])
    return updated


async def switch_ai(session: TenantSession, contact_id: str, reason: str | None) -> dict[str, Any]:
    """POST /contacts/{id}/ai/pause (reason manual) and .../ai/resume (None): the
    contact's AI switch, addressed by its path, so an erased contact is 409."""
    return await set_ai_pause(session, await writable(session, contact_id), reason)


async def writable(session: TenantSession, contact_id: str) -> dict[str, Any]:
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
    scrubbed: dict[str, Any] = {name: None for name in _SCRUBBED if contact[name] is not None}
    if contact["anonymized_at"] is None:
        scrubbed["anonymized_at"] = session.now()
    if scrubbed:
        scrubbed["updated_at"] = session.now()
        await repository.update(session, contact_id, scrubbed)


async def scrub_timeline(session: TenantSession, contact_id: str) -> None:
    """Every entry keeps its type, time and actor; its title becomes REDACTED, its body
    and data go (they quote notes, message bodies, titles)."""
    await repository.scrub_timeline(session, contact_id, REDACTED)
