"""An import's rows, a batch at a time: checked as the single creates check their bodies,
then written with the single creates' own functions (docs/imports-exports.md).

- `check`: the one validation of a row. The schema is the single create's
  (ContactCreate, LeadCreate), its errors worded by kit.validation as a 400 words them;
  then, for contacts, contacts.service.refusals, the rules a create checks beyond the
  schema (an owner who is not a member, custom fields' values), for the whole batch with
  one lookup of the members and one of the custom fields. A rule a contact create gains
  is added there and holds here too.
- `apply_contacts`: one lookup of the batch's matches (canonical email and E.164 phone,
  IN (...)), one multi-row INSERT of the new contacts, an UPDATE per changed contact, and
  every event of the batch in one statement, in row order: the same rows and events
  POST /v1/contacts and PATCH /v1/contacts/{id} write. A row matching a contact is also
  refused as that PATCH would refuse it: when it would grow the contact's custom values
  past their bound (custom_fields/definitions.py MAX_VALUES_BYTES).
- `apply_leads`: leads.service.create_lead per row (consent, linking, routing, events).
"""

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from pydantic import BaseModel, ValidationError
from sqlalchemy import bindparam, tuple_

from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord, TimelineRecord
from homebase.contacts.schemas import ContactCreate
from homebase.custom_fields import service as custom
from homebase.custom_fields.definitions import Definitions
from homebase.db.tenancy import TenantSession, tenant_select
from homebase.imports.schemas import ImportMatchKey, ImportObject
from homebase.kit.errors import ValidationFailed
from homebase.kit.validation import field_errors
from homebase.leads import service as leads
from homebase.leads.schemas import LeadCreate
from homebase.models import Contact
from homebase.outbox.service import Event, emit_many

contacts_table = Contact.__table__
FieldErrors = list[dict[str, str]]
# Rows between turns given back to the event loop. A batch is CPU work between its
# statements (validation, phone parsing, rows and events), and an in-process worker shares
# the loop with the requests it serves: without a turn, a whole batch held the loop, and
# every request on it (GET /v1/ping too) waited that long (docs/performance.md, "Bulk
# imports"). A turn every 25 rows bounds that wait to a small part of a batch.
YIELD_EVERY = 25


async def _turn(index: int) -> None:
    """Gives the event loop a turn every YIELD_EVERY rows."""
    if index % YIELD_EVERY == YIELD_EVERY - 1:
        await asyncio.sleep(0)


SCHEMAS: dict[ImportObject, type[BaseModel]] = {
    ImportObject.CONTACTS: ContactCreate,
    ImportObject.LEADS: LeadCreate,
}


def _schema_errors(error: ValidationError, row: Any) -> FieldErrors:
    """Pydantic's errors as a single create's 400 gives them (its items' field and
    message): the row is that create's body."""
    located = [{**item, "loc": ("body", *item["loc"])} for item in error.errors()]
    return [
        {"field": item["field"], "message": item["message"]} for item in field_errors(located, row)
    ]


def _refusal_errors(refused: ValidationFailed) -> FieldErrors:
    """A service's 400 as a row's errors: its items' field and message."""
    items = (refused.details or {}).get("errors", [])
    return [{"field": item["field"], "message": item["message"]} for item in items]


async def check(
    session: TenantSession, kind: ImportObject, rows: Sequence[Any], fields: Definitions
) -> list[BaseModel | FieldErrors]:
    """Each row as the single create's validated body, or its errors. `fields`: the
    contacts' custom fields (contacts.service.definitions), read once per batch."""
    schema = SCHEMAS[kind]
    checked: list[BaseModel | FieldErrors] = []
    for index, row in enumerate(rows):
        try:
            checked.append(schema.model_validate(row))
        except ValidationError as error:
            checked.append(_schema_errors(error, row))
        await _turn(index)
    if kind is ImportObject.CONTACTS:
        valid = [
            (index, item) for index, item in enumerate(checked) if isinstance(item, ContactCreate)
        ]
        refused = await contacts.refusals(session, [item for _, item in valid], fields=fields)
        for (index, _), failures in zip(valid, refused, strict=True):
            if failures:
                checked[index] = [{"field": name, "message": message} for name, message in failures]
    return checked


@dataclass
class Tally:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    errors: list[tuple[int, FieldErrors]] = field(default_factory=list)  # (index, errors)

    def refuse(self, index: int, item: BaseModel | FieldErrors) -> None:
        self.failed += 1
        self.errors.append((index, item if isinstance(item, list) else []))


def _keys(data: ContactCreate) -> dict[ImportMatchKey, str | None]:
    """The row's canonical email and phone, as contacts store them (email_lower,
    phone_e164), to compare with theirs."""
    found = contacts.derived({"email": data.email, "phone": data.phone})
    return {
        ImportMatchKey.EMAIL: found["email_lower"],
        ImportMatchKey.PHONE: found["phone_e164"],
    }


# The batch's matches, one statement per key, built once (the list is an expanding
# parameter, so the compiled statement is reused whatever its length). No ORDER BY: with
# one, PostgreSQL walked the workspace's (workspace_id, id) index to avoid a sort,
# reading every contact; the rows are sorted here instead (the oldest answers). The
# values are (workspace, value) pairs, compared as a row with the (workspace_id, column)
# btree's own columns: `email_lower IN (...)` alone is also answered by the search's
# trigram GIN index, which PostgreSQL took on statistics a grown table had outdated, a
# plan far slower than the btree's (docs/performance.md, "Bulk imports"); a row value
# only the btree serves.
_LOOKUPS = {
    key: tenant_select(contacts_table).where(
        tuple_(contacts_table.c.workspace_id, column).in_(bindparam("wanted", expanding=True))
    )
    for key, column in (
        (ImportMatchKey.EMAIL, contacts_table.c.email_lower),
        (ImportMatchKey.PHONE, contacts_table.c.phone_e164),
    )
}


class _Matches:
    """The batch's existing contacts by canonical email and phone (the oldest contact
    when several share one), kept up to date as the batch creates and changes them."""

    def __init__(self) -> None:
        # a contact's row: contacts/ types it
        self.by: dict[ImportMatchKey, dict[str, ContactRecord]] = {
            ImportMatchKey.EMAIL: {},
            ImportMatchKey.PHONE: {},
        }

    async def load(
        self,
        session: TenantSession,
        keys: list[dict[ImportMatchKey, str | None]],
        match_on: list[ImportMatchKey],
    ) -> None:
        for key in match_on:
            wanted = sorted({value for found in keys if (value := found[key])})
            if wanted:
                pairs = [(session.workspace_id, value) for value in wanted]
                found = await session.fetch_all(_LOOKUPS[key], {"wanted": pairs})
                for row in sorted(found, key=lambda row: str(row["id"])):
                    self.remember(cast("ContactRecord", row))  # _LOOKUPS read contacts rows

    def remember(self, row: ContactRecord) -> None:
        """`row` answers for its own email and phone (ones already taken keep theirs)."""
        for key, value in (
            (ImportMatchKey.EMAIL, row["email_lower"]),
            (ImportMatchKey.PHONE, row["phone_e164"]),
        ):
            if value:
                self.by[key].setdefault(value, row)

    def find(
        self, keys: dict[ImportMatchKey, str | None], match_on: list[ImportMatchKey]
    ) -> ContactRecord | None:
        for key in match_on:
            value = keys[key]
            if value and value in self.by[key]:
                return self.by[key][value]
        return None


async def apply_contacts(
    session: TenantSession,
    start: int,
    checked: list[BaseModel | FieldErrors],
    match_on: list[ImportMatchKey],
    fields: Definitions,
) -> Tally:
    """Writes the batch whose first row is the import's row `start`."""
    tally = Tally()
    keys: dict[int, dict[ImportMatchKey, str | None]] = {}
    for offset, item in enumerate(checked):
        if isinstance(item, ContactCreate):
            keys[offset] = _keys(item)
        await _turn(offset)
    matches = _Matches()
    await matches.load(session, list(keys.values()), match_on)
    pending: list[ContactRecord] = []  # new contacts, inserted together
    pending_ids: set[str] = set()
    entries: list[TimelineRecord] = []
    events: list[Event] = []

    async def flush() -> None:
        if pending:
            await session.insert(contacts_repository.contacts, pending)
            await custom.write_new_values(
                session,
                fields,
                records=[(row["id"], row["custom_fields"] or {}) for row in pending],
            )
            pending.clear()
            pending_ids.clear()

    for offset, item in enumerate(checked):
        await _turn(offset)
        if not isinstance(item, ContactCreate):
            tally.refuse(start + offset, item)
            continue
        current = matches.find(keys[offset], match_on)
        if current is None:
            row = contacts.new_row(session, item, fields=fields)
            pending.append(row)
            pending_ids.add(row["id"])
            events += contacts.created_events(row, fields)
            matches.remember(row)
            tally.created += 1
            continue
        try:
            wanted = contacts.requested(item, current, fields=fields)
        except ValidationFailed as refused:  # the contact's values would outgrow their bound
            tally.refuse(start + offset, _refusal_errors(refused))
            continue
        changes = contacts.differing(current, wanted)
        if not changes:
            tally.unchanged += 1
            continue
        if current["id"] in pending_ids:  # made earlier in this batch: written first
            await flush()
        effects = contacts.update_effects(
            session, current, wanted=wanted, changes=changes, fields=fields
        )
        await contacts.write_update(session, current, effects=effects, fields=fields)
        # later rows of the batch see it as it now is; ContactChanges is a partial
        # ContactRecord, which mypy's update takes only with every key named
        current.update(effects.values)  # type: ignore[typeddict-item]
        matches.remember(current)
        entries += effects.timeline
        events += effects.events
        tally.updated += 1
    await flush()
    if entries:
        await timeline.record_many(session, entries)
    if events:
        await emit_many(session, events)
    return tally


async def apply_leads(
    session: TenantSession,
    start: int,
    checked: list[BaseModel | FieldErrors],
    skip_routing: bool,
) -> Tally:
    tally = Tally()
    for offset, item in enumerate(checked):
        if not isinstance(item, LeadCreate):
            tally.refuse(start + offset, item)
            continue
        if skip_routing and not item.skip_routing:
            item = item.model_copy(update={"skip_routing": True})
        await leads.create_lead(session, item)
        tally.created += 1
    return tally
