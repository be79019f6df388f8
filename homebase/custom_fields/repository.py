"""Custom field definitions and their typed values. Every statement starts from the
TenantSession; the purge job's look across workspaces is in jobs.py."""

from collections.abc import Iterable, Sequence
from typing import Any, cast

from sqlalchemy import (
    String,
    Table,
    bindparam,
    exists,
    func,
    literal_column,
    select,
    text,
    tuple_,
    type_coerce,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.sql import ColumnElement

from homebase.custom_fields.records import CustomFieldChanges, CustomFieldRecord, ValueRecord
from homebase.db.tenancy import TenantSession, tenant_select
from homebase.kit.statements import AnySelect
from homebase.models import Contact, CustomField, CustomFieldValue, Deal
from homebase.models.custom_field import LIVE_WHERE
from homebase.paging.listing import Listing

fields = CustomField.__table__
values = CustomFieldValue.__table__
RECORDS: dict[str, Table] = {"contacts": Contact.__table__, "deals": Deal.__table__}
_LIVE = fields.c.deleted_at.is_(None)


# Read by every contact and deal request (what renders their values): built once, so
# SQLAlchemy finds it compiled.
_LIVE_FIELDS = (
    tenant_select(fields)
    .where(fields.c.object == bindparam("object", type_=String), _LIVE)
    .order_by(fields.c.id)
)


async def live(session: TenantSession, object: str) -> list[CustomFieldRecord]:
    """The object's live fields, oldest first (ids are time-ordered)."""
    rows = await session.fetch_all(_LIVE_FIELDS, {"object": object})
    return cast("list[CustomFieldRecord]", rows)


async def get_live(session: TenantSession, field_id: str) -> CustomFieldRecord | None:
    row = await session.fetch_one(session.select(fields).where(fields.c.id == field_id, _LIVE))
    return cast("CustomFieldRecord | None", row)


async def count_live(session: TenantSession, object: str) -> int:
    row = await session.fetch_one(
        session.select(fields, func.count().label("n")).where(fields.c.object == object, _LIVE)
    )
    return int(row["n"]) if row is not None else 0


def listing(session: TenantSession, objects: Sequence[str]) -> Listing[CustomFieldRecord]:
    """GET /v1/custom-fields: the live fields of these objects, newest first."""
    statement = session.select(fields).where(fields.c.object.in_(list(objects)), _LIVE)
    return Listing.newest(statement, fields)


async def insert_if_key_free(session: TenantSession, row: CustomFieldRecord) -> bool:
    """False when a live field of the object has the key already."""
    return await session.insert_if_absent(
        fields, row, conflict=["workspace_id", "object", "key"], index_where=text(LIVE_WHERE)
    )


async def update(session: TenantSession, field_id: str, changes: CustomFieldChanges) -> None:
    await session.execute(
        session.update(fields).where(fields.c.id == field_id, _LIVE).values(**changes)
    )


async def choices_in_use(
    session: TenantSession, field_id: str, choices: Sequence[str]
) -> list[str]:
    """Which of `choices` some record's value holds (the filter index answers each)."""
    rows = await session.fetch_all(
        session.select(values, values.c.value_key)
        .where(values.c.field_id == field_id, values.c.value_key.in_(list(choices)))
        .distinct()
    )
    found = {row["value_key"] for row in rows}
    return [choice for choice in choices if choice in found]


# -- values -----------------------------------------------------------------------------


async def replace_values(
    session: TenantSession,
    object: str,
    record_id: str,
    field_ids: Sequence[str],
    rows: Sequence[ValueRecord],
) -> None:
    """The record's rows of `field_ids` become `rows`."""
    if field_ids:
        await session.execute(
            session.delete(values).where(
                values.c.object == object,
                values.c.record_id == record_id,
                values.c.field_id.in_(list(field_ids)),
            )
        )
    await insert_values(session, rows)


async def insert_values(session: TenantSession, rows: Sequence[ValueRecord]) -> None:
    if rows:
        await session.insert(values, list(rows))  # one multi-row statement


async def delete_record_values(session: TenantSession, object: str, record_id: str) -> int:
    return await session.execute(
        session.delete(values).where(values.c.object == object, values.c.record_id == record_id)
    )


async def clear_record(session: TenantSession, object: str, record_id: str) -> int:
    """The record's JSON values gone (erasure); the rows changed. An empty object, never
    JSON null (which the purge's `-` on PostgreSQL would refuse)."""
    table = RECORDS[object]
    return await session.execute(
        session.update(table).where(table.c.id == record_id).values(custom_fields={})
    )


# -- the lists' filters -------------------------------------------------------------------


def custom_filtered(
    session: TenantSession, records: Table, columns: Sequence[Any], count: int
) -> tuple[AnySelect, ColumnElement[Any]]:
    """The records (`columns` of `records`) holding each of `count` custom values, and the
    column to walk in keyset order. The first value drives the page: its rows of the
    primary key (field_id, value_key, record_id) in record order, each record
    joined by id (its workspace filter is `workspace_id || ''`, which no index serves,
    so the planner keeps to the values' index: select_unindexed_scope); the others are
    each an EXISTS on the same index. Bindparams custom_field_<n> and custom_value_<n>.
    A multi_select holds one row per choice, so a record matches a choice once."""
    first = values.alias("custom_value_0")
    statement = (
        session.select_unindexed_scope(records, *columns)
        .select_from(first.join(records, records.c.id == first.c.record_id))
        .where(
            first.c.workspace_id == session.workspace_id,
            first.c.field_id == bindparam("custom_field_0", type_=String),
            first.c.value_key == bindparam("custom_value_0", type_=String),
        )
    )
    return statement.where(*custom_held(records, range(1, count))), first.c.record_id


def custom_held(records: Table, numbers: Iterable[int]) -> list[ColumnElement[bool]]:
    """For each n of `numbers`, that the record holds custom value n (bindparams
    custom_field_<n> and custom_value_<n>): an EXISTS on the values' primary key, for a
    walk another index drives (the rest of custom_filtered's values; an `updated_after`
    walk, paging/changes.py)."""
    held: list[ColumnElement[bool]] = []
    for n in numbers:
        other = values.alias(f"custom_value_{n}")
        held.append(
            exists(
                select(literal_column("1"))
                .select_from(other)
                .where(
                    other.c.workspace_id == records.c.workspace_id,
                    other.c.field_id == bindparam(f"custom_field_{n}", type_=String),
                    other.c.value_key == bindparam(f"custom_value_{n}", type_=String),
                    other.c.record_id == records.c.id,
                )
            )
        )
    return held


def custom_params(custom: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The bindparams of custom_filtered / custom_held for (field id, value key) pairs."""
    params = {f"custom_field_{n}": field_id for n, (field_id, _) in enumerate(custom)}
    params |= {f"custom_value_{n}": key for n, (_, key) in enumerate(custom)}
    return params


# -- a deleted field's values (jobs.py) ---------------------------------------------------


async def purge_some(session: TenantSession, object: str, field_id: str, limit: int) -> int:
    """Up to `limit` of a deleted field's rows removed, and the field's member from the
    JSON of the records they belong to; the rows removed. Read by the primary key's
    prefix (field_id), in no order: any rows will do, the next batch takes the rest."""
    found = await session.fetch_all(
        session.select(values, values.c.value_key, values.c.record_id)
        .where(values.c.field_id == field_id)
        .limit(limit)
    )
    if not found:
        return 0
    record_ids = sorted({row["record_id"] for row in found})
    table = RECORDS[object]
    await session.execute(
        session.update(table)
        .where(table.c.id.in_(record_ids), table.c.custom_fields.is_not(None))
        .values(custom_fields=_without(session, table.c.custom_fields, field_id))
    )
    keys = [(row["value_key"], row["record_id"]) for row in found]
    await session.execute(
        session.delete(values).where(
            values.c.field_id == field_id,
            tuple_(values.c.value_key, values.c.record_id).in_(keys),
        )
    )
    return len(found)


def _without(session: TenantSession, column: ColumnElement[Any], field_id: str) -> Any:
    """`column` (a JSON object) without member `field_id`, computed by the database, so a
    write to another member in between is not lost."""
    if session.dialect == "postgresql":
        return type_coerce(column, JSONB).op("-")(bindparam("purged", field_id, type_=String))
    # Field ids are [a-z0-9_] (kit/ids.py): the JSON path needs no quoting beyond this.
    return func.json_remove(column, bindparam("purged", f'$."{field_id}"', type_=String))


async def delete_definition(session: TenantSession, field_id: str) -> None:
    await session.execute(
        session.delete(fields).where(fields.c.id == field_id, fields.c.deleted_at.is_not(None))
    )
