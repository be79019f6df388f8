"""The custom field rules: definitions (create, update, delete) and the values contacts
and deals carry (contacts/service.py and deals/service.py call these, and so can a bulk
import: `load_definitions` once, `Definitions.write` per row, `write_new_values` for
the batch).

A record's values live twice, written together in the caller's transaction: keyed by
field id in the record's `custom_fields` JSON (what responses render, live fields only,
so a deleted field's values vanish at once and a key re-created right after its delete
starts empty) and as typed rows of custom_field_values (what the lists' filters walk)."""

from collections.abc import Mapping, Sequence
from typing import Any, cast

from pydantic import BaseModel

from homebase.custom_fields import repository
from homebase.custom_fields.definitions import (
    MAX_FIELDS,
    SELECTS,
    Definitions,
    PageDefinitions,
    definition_of,
)
from homebase.custom_fields.records import CustomFieldChanges, CustomFieldRecord
from homebase.custom_fields.schemas import (
    CustomFieldUpdate,
    CustomSelectFieldCreate,
    NewCustomField,
)
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import Conflict, NotFound, ValidationFailed
from homebase.kit.ids import new_id

PURGE_BATCH = 500  # value rows a purge batch removes (and their records' JSON members)


# -- definitions --------------------------------------------------------------------------


async def load_definitions(session: TenantSession, object: str) -> Definitions:
    """The object's live fields, with one query."""
    rows = await repository.live(session, object)
    return Definitions(object, tuple(definition_of(row) for row in rows))


class ListFields:
    """A contact or deal list's custom fields, the one rule for both lists: the
    definitions are read up front only for `custom.<key>=` filters (which need them to
    parse), else once the page's rows turn out to hold values (`prepare`, run by
    http/lists.py before rendering; PageDefinitions). `by_custom`: the filters as
    (field id, value key) pairs for the repository."""

    def __init__(
        self,
        session: TenantSession,
        object: str,
        page: PageDefinitions,
        by_custom: tuple[tuple[str, str], ...],
        prefixed: Mapping[str, str],
    ):
        self._session, self._object, self._prefixed = session, object, prefixed
        self.page, self.by_custom = page, by_custom

    @classmethod
    async def read(
        cls, session: TenantSession, object: str, prefixed: Mapping[str, str]
    ) -> "ListFields":
        page = PageDefinitions(
            object, await load_definitions(session, object) if prefixed else None
        )
        return cls(session, object, page, tuple(filters(page.current, prefixed)), prefixed)

    def keyed(self, listed: BaseModel) -> dict[str, object]:
        """The list's filters as its cursor keys them: `listed`'s values and each
        `custom.<key>` sent (http/lists.paginate's `filters`)."""
        values: dict[str, object] = listed.model_dump(mode="json")
        return values | {f"custom.{key}": value for key, value in self._prefixed.items()}

    async def prepare(self, rows: Sequence[Mapping[str, Any]]) -> None:
        if self.page.needed(rows):
            self.page.use(await load_definitions(self._session, self._object))


async def get_or_404(session: TenantSession, field_id: str) -> CustomFieldRecord:
    row = await repository.get_live(session, field_id)
    if row is None:
        raise NotFound("No such custom field.")
    return row


def _check_choices(kind: str, choices: list[str] | None) -> None:
    if kind in SELECTS:
        if choices is None:
            raise ValidationFailed.for_field("choices", f"is required for type {kind}")
        if len(set(choices)) != len(choices):
            raise ValidationFailed.for_field("choices", "must not repeat a choice")
    elif choices is not None:
        raise ValidationFailed.for_field(
            "choices", f"is only for single_select and multi_select, not {kind}"
        )


async def create_field(session: TenantSession, body: NewCustomField) -> CustomFieldRecord:
    object, kind = body.object.value, body.type
    choices = body.choices if isinstance(body, CustomSelectFieldCreate) else None
    _check_choices(kind, choices)
    if await repository.count_live(session, object) >= MAX_FIELDS:
        raise Conflict(
            f"The workspace has {MAX_FIELDS} custom fields of {object}, the most it may "
            "have; delete one first.",
            details={"object": object, "limit": MAX_FIELDS},
        )
    now = session.now()
    row: CustomFieldRecord = {
        "id": new_id("cfd"),
        "object": object,
        "key": body.key,
        "label": body.label,
        "type": kind,
        "choices": choices,
        "created_at": now,
        "updated_at": now,
        "deleted_at": None,
    }
    if not await repository.insert_if_key_free(session, row):
        raise Conflict(
            f"{object} already have a custom field with key {body.key}.",
            details={"object": object, "key": body.key},
        )
    return row


async def update_field(
    session: TenantSession, field_id: str, *, patch: CustomFieldUpdate
) -> CustomFieldRecord:
    current = await get_or_404(session, field_id)
    requested = patch.model_dump(include=patch.model_fields_set)
    if "choices" in requested:
        _check_choices(current["type"], requested["choices"])
        removed = [c for c in current["choices"] or () if c not in requested["choices"]]
        in_use = await repository.choices_in_use(session, field_id, removed) if removed else []
        if in_use:
            raise Conflict(
                "Some records hold choices this update removes; change their values first.",
                details={"choices_in_use": in_use},
            )
    changed = {key: value for key, value in requested.items() if current[key] != value}  # type: ignore[literal-required]
    changes = cast(CustomFieldChanges, changed)  # CustomFieldUpdate's members, each a column
    if not changes:
        return current
    changes["updated_at"] = session.now()
    await repository.update(session, field_id, changes)
    return {**current, **changes}


async def delete_field(session: TenantSession, field_id: str) -> CustomFieldRecord:
    """Gone at once for the API (the key is free again, no record renders it); the
    worker removes its values (jobs.py)."""
    current = await get_or_404(session, field_id)
    now = session.now()
    await repository.update(session, field_id, {"deleted_at": now, "updated_at": now})
    session.mark_work()
    return current


# -- values -----------------------------------------------------------------------------


def written(
    definitions: Definitions,
    stored: Mapping[str, Any] | None,
    *,
    values: Mapping[str, Any] | None,
) -> dict[str, Any]:  # values: JSON by field id
    """The record's stored values after a write of `values` (None: a new record), checked
    (Definitions.write: each key's value, then the record's size); 400 naming every
    failing key, or `custom_fields` for the size."""
    merged, errors = definitions.write(stored, values)
    if errors:
        raise ValidationFailed.for_fields(errors)
    return merged


async def write_new_values(
    session: TenantSession,
    definitions: Definitions,
    *,
    records: Sequence[tuple[str, Mapping[str, Any]]],
) -> None:
    """The typed rows of new records, (record id, stored values) each, in one statement."""
    rows = [
        row for record_id, stored in records for row in definitions.value_rows(record_id, stored)
    ]
    await repository.insert_values(session, rows)


async def write_changed_values(
    session: TenantSession,
    definitions: Definitions,
    *,
    record_id: str,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any],
) -> list[str]:
    """Rewrites the typed rows of the fields whose value changed; their keys."""
    changed = definitions.changed_keys(before, after)
    if changed:
        ids = [definitions.by_key[key].id for key in changed]
        kept = {fid: after[fid] for fid in ids if fid in after}
        await repository.replace_values(
            session, definitions.object, record_id, ids, definitions.value_rows(record_id, kept)
        )
    return changed


def filters(
    definitions: Definitions, raw: Mapping[str, str], *, prefix: str = "custom"
) -> list[tuple[str, str]]:
    """(field id, value key) for each `custom.<key>=value` of a list's query; 400 naming
    every `custom.<key>` that is unknown or whose value its type refuses."""
    found: list[tuple[str, str]] = []
    errors: list[tuple[str, str]] = []
    for key, value in raw.items():
        definition, result = definitions.filter_key(key, value)
        if definition is None:
            errors.append((f"{prefix}.{key}", result))
        else:
            found.append((definition.id, result))
    if errors:
        raise ValidationFailed.for_fields(errors, location="query")
    return found


async def scrub_contact_custom_fields(session: TenantSession, contact_id: str) -> None:
    """Erasure (erasure/registry.py): every custom value of the contact goes, from its
    JSON and the typed rows."""
    await repository.clear_record(session, "contacts", contact_id)
    await repository.delete_record_values(session, "contacts", contact_id)


async def purge_batch(session: TenantSession, field: Mapping[str, Any]) -> int:
    """One bounded batch of a deleted field's values removed (typed rows and the records'
    JSON members); the field's row goes once none is left. The rows removed."""
    removed = await repository.purge_some(session, field["object"], field["id"], PURGE_BATCH)
    if removed < PURGE_BATCH:
        await repository.delete_definition(session, field["id"])
    return removed
