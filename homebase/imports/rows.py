"""An import's rows, a batch at a time: checked as the single creates check their bodies,
then written with the single creates' own functions (docs/imports-exports.md).

- `check`: the one validation of a row. The schema is the single create's
  (ContactCreate, LeadCreate), its errors worded by kit.validation as a 400 words them;
  then, for contacts, contacts.service.refusals, the rules a create checks beyond the
  schema (an owner who is not a member, custom fields' values), for the whole batch with
  one lookup of the members and one of the custom fields. A rule a contact create gains
  is added there and holds here too.
- `apply_contacts`: one lookup of the batch's matches (canonical email and E.164 phone,
  IN (...)), the new contacts in multi-row INSERTs, an UPDATE per changed contact, and
  the events in multi-row INSERTs, in row order: the same rows and events POST
  /v1/contacts and PATCH /v1/contacts/{id} write. An INSERT takes WRITE_ROWS rows at
  most: binding a statement's rows is CPU work the event loop cannot break up. A row
  matching a contact is also refused as that PATCH would refuse it: when it would grow
  the contact's custom values past their bound (custom_fields/definitions.py
  MAX_VALUES_BYTES).
- `apply_leads`: leads.service.create_lead per row (consent, linking, routing, events).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from pydantic import BaseModel, ValidationError
from sqlalchemy import func

from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord, TimelineRecord
from homebase.contacts.schemas import ContactCreate
from homebase.custom_fields import service as custom
from homebase.custom_fields.definitions import Definitions
from homebase.db.tenancy import TenantSession, tenant_select
from homebase.imports.records import reason
from homebase.imports.schemas import ImportMatchKey, ImportObject, ImportRowKind, MappedValue
from homebase.kit.errors import ValidationFailed
from homebase.kit.phones import DEFAULT_REGION
from homebase.kit.validation import field_errors
from homebase.kit.value_lists import in_values
from homebase.kit.write_warnings import phone_warnings
from homebase.leads import service as leads
from homebase.leads.schemas import LeadCreate
from homebase.models import Contact, User
from homebase.outbox.service import Event, emit_many
from homebase.worker import turns

contacts_table = Contact.__table__
users_table = User.__table__
FieldErrors = list[dict[str, str]]
SCHEMAS: dict[ImportObject, type[BaseModel]] = {
    ImportObject.CONTACTS: ContactCreate,
    ImportObject.LEADS: LeadCreate,
}
CUSTOM = "custom_fields"
# New contacts or events in one INSERT at most, by dialect. On SQLite binding a row's
# values is Python work, all of it done before the statement runs: a batch's 500 rows held
# the event loop, and a request arriving meanwhile (an in-process worker shares the loop)
# waited that long (worker/turns.py; docs/performance.md, "Bulk imports"). PostgreSQL has
# no entry: few values need binding and each INSERT is a round trip (a COPY,
# db/driver.py), so a batch's rows go in one.
WRITE_ROWS = {"sqlite": 100}


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


# What on_invalid_cell "skip" may leave out of a row (a warning, the row written): a
# custom field's value, the stage, the owner. Any other invalid value refuses the row.
SKIPPABLE = ("stage", "owner_id")
NAMES_NO_ONE = "names no one: no first_name, last_name, email or phone"
AMBIGUOUS_OWNER = "names several members; map it to one member's id in value_map"
IDENTIFYING = ("first_name", "last_name", "email", "phone")
_MISSING = object()


def _skippable(name: str) -> bool:
    return name in SKIPPABLE or name.startswith(CUSTOM + ".")


# a field's value_map: (exact, by the found value folded)
FieldMaps = tuple[Mapping[str, MappedValue], dict[str, MappedValue]]
Folded = dict[str, FieldMaps]


@dataclass(frozen=True)
class RowOptions:
    """How the rows' values are read: value_map ({field: {found: value}}), whether an
    invalid cell that may be left out is (`skip`), the region of numbers without a
    country code."""

    value_map: Mapping[str, Mapping[str, MappedValue]] = field(default_factory=dict)
    skip: bool = False
    region: str = DEFAULT_REGION

    def folded(self) -> Folded:
        """{field: (exact, by the found value folded)}."""
        return {
            name: (values, {found.strip().casefold(): value for found, value in values.items()})
            for name, values in self.value_map.items()
        }


def _mapped(maps: FieldMaps, value: object) -> object:
    """A found value as value_map maps it (a list element by element), or _MISSING."""
    exact, folded = maps
    if isinstance(value, list):
        out: list[object] = []
        for element in value:
            found = _mapped(maps, element)
            if found is _MISSING:
                out.append(element)
            elif isinstance(found, list):
                out += found
            elif found is not None:
                out.append(found)
        return out
    if not isinstance(value, str):
        return _MISSING
    if value in exact:
        return exact[value]
    return folded.get(value.strip().casefold(), _MISSING)


def map_values(row: Any, maps: Folded) -> Any:  # a row: free-form JSON until checked
    """The row with value_map applied (a copy; the row itself is left as it came)."""
    if not maps or not isinstance(row, dict):
        return row
    row = dict(row)
    custom = row.get(CUSTOM)
    if isinstance(custom, dict):
        custom = row[CUSTOM] = dict(custom)
    for name, table in maps.items():
        holder, key = (row, name)
        if name.startswith(CUSTOM + "."):
            holder, key = custom, name.removeprefix(CUSTOM + ".")
        if not isinstance(holder, dict) or key not in holder:
            continue
        found = _mapped(table, holder[key])
        if found is None:
            del holder[key]
        elif found is not _MISSING:
            holder[key] = found
    return row


class Members:
    """The workspace's members, to read an owner cell: a member's id, else email (any
    case), else full name (when exactly one member has it)."""

    def __init__(self, rows: Sequence[Any]):
        self.ids = {row["id"] for row in rows}
        self.emails: dict[str, list[str]] = {}
        self.names: dict[str, list[str]] = {}
        for row in rows:
            self.emails.setdefault(str(row["email"]).strip().casefold(), []).append(row["id"])
            self.names.setdefault(" ".join(str(row["name"]).casefold().split()), []).append(
                row["id"]
            )

    def resolve(self, value: str) -> tuple[str | None, str | None]:
        """(member id, None) or (None, why not)."""
        if value in self.ids:
            return value, None
        by_email = self.emails.get(value.strip().casefold(), [])
        if len(by_email) == 1:
            return by_email[0], None
        by_name = self.names.get(" ".join(value.casefold().split()), [])
        if len(by_name) == 1:
            return by_name[0], None
        return None, AMBIGUOUS_OWNER if by_name else contacts.OWNER_REFUSAL


_MEMBERS = tenant_select(
    users_table, users_table.c.id, users_table.c.email, users_table.c.name
).where(users_table.c.removed_at.is_(None))


async def members(session: TenantSession) -> list[Any]:
    """The workspace's members (id, email, name), to read owner cells by."""
    return await session.fetch_all(_MEMBERS)


async def _owners(session: TenantSession, rows: list[Any], skip: bool) -> dict[int, FieldErrors]:
    """Each row's owner cell read as a member's id, in place; {offset: warnings} for the
    rows whose owner was left out (skip). An owner that resolves to no member stays for
    the create's check to refuse (refuse)."""
    wanted = [
        offset
        for offset, row in enumerate(rows)
        if isinstance(row, dict) and isinstance(row.get("owner_id"), str)
    ]
    if not wanted:
        return {}
    table = Members(await members(session))
    warned: dict[int, FieldErrors] = {}
    for offset in wanted:
        row = rows[offset] = dict(rows[offset])
        found, why = table.resolve(row["owner_id"])
        if found is not None:
            row["owner_id"] = found
        elif skip:
            del row["owner_id"]
            warned[offset] = [{"field": "owner_id", "message": why or contacts.OWNER_REFUSAL}]
    return warned


def _without(row: Any, names: Sequence[str]) -> Any:
    """The row without the members `names` (custom_fields.<key> inside custom_fields)."""
    row = dict(row)
    custom = dict(row[CUSTOM]) if isinstance(row.get(CUSTOM), dict) else None
    for name in names:
        if name.startswith(CUSTOM + ".") and custom is not None:
            custom.pop(name.removeprefix(CUSTOM + "."), None)
        else:
            row.pop(name, None)
    if custom is not None:
        row[CUSTOM] = custom
    return row


@dataclass
class Checked:
    """A batch's rows checked: each the single create's body or its errors, and each
    row's warnings (values left out, a doubtful phone)."""

    rows: list[BaseModel | FieldErrors]
    warnings: list[FieldErrors]


async def check(
    session: TenantSession,
    kind: ImportObject,
    rows: Sequence[Any],
    fields: Definitions,
    options: RowOptions | None = None,
) -> Checked:
    """Each row as the single create's validated body, or its errors. `fields`: the
    contacts' custom fields (contacts.service.definitions), read once per batch."""
    options = options or RowOptions()
    schema = SCHEMAS[kind]
    checked: list[BaseModel | FieldErrors] = []
    warnings: list[FieldErrors] = [[] for _ in rows]
    mapped: list[Any] = list(rows)
    if kind is ImportObject.CONTACTS:
        maps = options.folded()
        mapped = [map_values(row, maps) for row in rows]
        for offset, items in (await _owners(session, mapped, options.skip)).items():
            warnings[offset] += items
    for index, row in enumerate(mapped):
        try:
            checked.append(schema.model_validate(row))
        except ValidationError as error:
            errors = _schema_errors(error, row)
            names = [item["field"] for item in errors]
            if options.skip and kind is ImportObject.CONTACTS and all(map(_skippable, names)):
                try:
                    checked.append(schema.model_validate(_without(row, names)))
                    warnings[index] += errors
                except ValidationError as again:
                    checked.append(_schema_errors(again, row))
            else:
                checked.append(errors)
        await turns.give()
    if kind is ImportObject.CONTACTS:
        valid = [
            (index, item) for index, item in enumerate(checked) if isinstance(item, ContactCreate)
        ]
        refused = await contacts.refusals(session, [item for _, item in valid], fields=fields)
        for (index, item), failures in zip(valid, refused, strict=True):
            if not failures:
                continue
            errors = [{"field": name, "message": message} for name, message in failures]
            if options.skip and all(_skippable(name) for name, _ in failures):
                names = [name for name, _ in failures]
                custom_values = {
                    key: value
                    for key, value in (item.custom_fields or {}).items()
                    if CUSTOM + "." + key not in names
                }
                update: dict[str, object] = {CUSTOM: custom_values or None}
                if "owner_id" in names:
                    update["owner_id"] = None
                checked[index] = item.model_copy(update=update)
                warnings[index] += errors
            else:
                checked[index] = errors
    for index, done in enumerate(checked):
        await turns.give()
        if isinstance(done, list):
            continue
        if options.skip and not any(getattr(done, name, None) for name in IDENTIFYING):
            checked[index] = [{"field": "row", "message": NAMES_NO_ONE}]
            continue
        # the single write's own warning, word for word
        for warned in phone_warnings(getattr(done, "phone", None), options.region):
            warnings[index].append({"field": warned["field"], "message": warned["message"]})
    return Checked(checked, warnings)


@dataclass
class Tally:
    """What a batch did. `start`: the import's index of the batch's first row; `lines`:
    each row's CSV line (None for rows sent as JSON)."""

    start: int = 0
    lines: Sequence[int | None] = ()
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: int = 0
    warnings: int = 0
    unmatchable: int = 0
    # (index, line, kind, errors) of each row refused or written with warnings
    errors: list[tuple[int, int | None, str, FieldErrors]] = field(default_factory=list)
    # {"field: message": refused rows}: a row's refusals, not its warnings, once each
    refused_by_reason: dict[str, int] = field(default_factory=dict)

    def _line(self, offset: int) -> int | None:
        return self.lines[offset] if offset < len(self.lines) else None

    def refuse(self, offset: int, item: BaseModel | FieldErrors, warned: FieldErrors) -> None:
        self.failed += 1
        items = item if isinstance(item, list) else []
        for found in {reason(error["field"], error["message"]) for error in items}:
            self.refused_by_reason[found] = self.refused_by_reason.get(found, 0) + 1
        self.errors.append(
            (self.start + offset, self._line(offset), ImportRowKind.REFUSED.value, items + warned)
        )

    def written(self, offset: int, warned: FieldErrors) -> None:
        if warned:
            self.warnings += 1
            self.errors.append(
                (self.start + offset, self._line(offset), ImportRowKind.WARNING.value, warned)
            )


def _name_key(first: str | None, last: str | None, owner: str | None) -> str | None:
    """first and last name (any case) and owner: `name`'s key, when both names are there."""
    if not first or not last or not first.strip() or not last.strip():
        return None
    return "\x1f".join((first.strip().casefold(), last.strip().casefold(), owner or ""))


def _keys(data: ContactCreate, region: str) -> dict[ImportMatchKey, str | None]:
    """The row's canonical email and phone, as contacts store them (email_lower,
    phone_e164, read in the workspace's `region`), and its name key, to compare."""
    found = contacts.derived({"email": data.email, "phone": data.phone}, region=region)
    return {
        ImportMatchKey.EMAIL: found["email_lower"],
        ImportMatchKey.PHONE: found["phone_e164"],
        ImportMatchKey.NAME: _name_key(data.first_name, data.last_name, data.owner_id),
    }


# The batch's matches, one statement per key and dialect, built once, the batch's values
# bound as one list (kit/value_lists.py: one statement text, cheap to plan), answered by the
# (workspace_id, column) btree. On PostgreSQL a contacts batch is planned without bitmap
# scans (jobs.py, NO_BITMAP_SCANS), so never through the search's trigram GIN indexes,
# which answer `=` too: the planner took them on fresh statistics, each value then reading
# every contact sharing its trigrams, seconds a batch (docs/performance.md, "Bulk imports").
# No ORDER BY: with one, PostgreSQL walked the workspace's (workspace_id, id) index to
# avoid a sort, reading every contact; the rows are sorted here instead (the oldest
# answers). A name's candidates are the contacts of the same last name (any case); the
# first name and owner are compared here.
_LOOKUPS = {
    (dialect, key): tenant_select(contacts_table).where(in_values(column, "wanted", dialect))
    for dialect in ("sqlite", "postgresql")
    for key, column in (
        (ImportMatchKey.EMAIL, contacts_table.c.email_lower),
        (ImportMatchKey.PHONE, contacts_table.c.phone_e164),
        (ImportMatchKey.NAME, func.lower(contacts_table.c.last_name)),
    )
}


class Matches:
    """The existing contacts by canonical email, phone and name key (the oldest contact
    when several share one), kept up to date as the import creates and changes them. A
    dry run keeps one for its whole import: the contacts it would create are in no table."""

    def __init__(self) -> None:
        # a contact's row: contacts/ types it
        self.by: dict[ImportMatchKey, dict[str, ContactRecord]] = {
            key: {} for key in ImportMatchKey
        }

    async def load(
        self,
        session: TenantSession,
        keys: list[dict[ImportMatchKey, str | None]],
        match_on: list[ImportMatchKey],
    ) -> None:
        for key in match_on:
            wanted = sorted({value for found in keys if (value := found[key])})
            if key is ImportMatchKey.NAME:
                wanted = sorted({value.split("\x1f")[1] for value in wanted})
            if wanted:
                lookup = _LOOKUPS[session.dialect, key]
                found = await session.fetch_all(lookup, {"wanted": wanted})
                for row in sorted(found, key=lambda row: str(row["id"])):
                    self.remember(cast("ContactRecord", row))  # _LOOKUPS read contacts rows

    def remember(self, row: ContactRecord) -> None:
        """`row` answers for its own email, phone and name (ones already taken keep theirs)."""
        for key, value in (
            (ImportMatchKey.EMAIL, row["email_lower"]),
            (ImportMatchKey.PHONE, row["phone_e164"]),
            (ImportMatchKey.NAME, _name_key(row["first_name"], row["last_name"], row["owner_id"])),
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
    tally: Tally,
    checked: Checked,
    match_on: list[ImportMatchKey],
    fields: Definitions,
    *,
    dry_run: bool = False,
    matches: Matches | None = None,
    region: str = DEFAULT_REGION,
) -> Tally:
    """Writes the batch (`tally` names its first row and lines). A dry run writes nothing
    and counts the same: `matches` (kept for the whole import) remembers what it would
    have created and changed."""
    keys: dict[int, dict[ImportMatchKey, str | None]] = {}
    for offset, item in enumerate(checked.rows):
        if isinstance(item, ContactCreate):
            keys[offset] = _keys(item, region)
        await turns.give()
    matches = matches if matches is not None else Matches()
    await matches.load(session, list(keys.values()), match_on)
    most = WRITE_ROWS.get(session.dialect)  # rows an INSERT takes; None: the batch's
    pending: list[ContactRecord] = []  # new contacts, inserted together
    pending_ids: set[str] = set()
    entries: list[TimelineRecord] = []
    events: list[Event] = []

    async def flush() -> None:
        """What the rows so far wrote, in row order: new contacts, their custom values,
        timeline entries, events."""
        if not dry_run:
            if pending:
                await session.insert(contacts_repository.contacts, pending)
                await custom.write_new_values(
                    session,
                    fields,
                    records=[(row["id"], row["custom_fields"] or {}) for row in pending],
                )
            if entries:
                await timeline.record_many(session, entries)
            if events:
                await emit_many(session, events)
        pending.clear()
        pending_ids.clear()
        entries.clear()
        events.clear()

    for offset, item in enumerate(checked.rows):
        await turns.give()
        if most is not None and (len(pending) >= most or len(events) >= most):
            await flush()
        warned = checked.warnings[offset]
        if not isinstance(item, ContactCreate):
            tally.refuse(offset, item, warned)
            continue
        if not any(keys[offset][key] for key in match_on):
            tally.unmatchable += 1
        current = matches.find(keys[offset], match_on)
        if current is None:
            row = contacts.new_row(session, item, fields=fields, region=region)
            pending.append(row)
            pending_ids.add(row["id"])
            if not dry_run:
                events += contacts.created_events(row, fields)
            matches.remember(row)
            tally.created += 1
            tally.written(offset, warned)
            continue
        try:
            wanted = contacts.requested(item, current, fields=fields)
        except ValidationFailed as refused:  # the contact's values would outgrow their bound
            tally.refuse(offset, _refusal_errors(refused), warned)
            continue
        changes = contacts.differing(current, wanted)
        tally.written(offset, warned)
        if not changes:
            tally.unchanged += 1
            continue
        if current["id"] in pending_ids:  # made earlier in this batch: written first
            await flush()
        effects = contacts.update_effects(
            session, current, wanted=wanted, changes=changes, fields=fields, region=region
        )
        if not dry_run:
            await contacts.write_update(session, current, effects=effects, fields=fields)
            entries += effects.timeline
            events += effects.events
        # later rows see it as it now is; ContactChanges is a partial ContactRecord,
        # which mypy's update takes only with every key named
        current.update(effects.values)  # type: ignore[typeddict-item]
        matches.remember(current)
        tally.updated += 1
    await flush()
    return tally


async def apply_leads(
    session: TenantSession,
    tally: Tally,
    checked: Checked,
    skip_routing: bool,
    *,
    dry_run: bool = False,
    first_touch_per_minute: int | None = None,
) -> Tally:
    """`first_touch_per_minute`: the import asked for first touches (ai/outreach.py),
    spaced this many a minute; None: it did not, and no lead is texted."""
    for offset, item in enumerate(checked.rows):
        warned = checked.warnings[offset]
        if not isinstance(item, LeadCreate):
            tally.refuse(offset, item, warned)
            continue
        if skip_routing and not item.skip_routing:
            item = item.model_copy(update={"skip_routing": True})
        if not dry_run:
            await leads.create_lead(
                session,
                item,
                first_touch=first_touch_per_minute is not None,
                first_touch_per_minute=first_touch_per_minute,
                origin="import",
            )
        tally.created += 1
        tally.written(offset, warned)
    return tally
