"""Many rows of one INSERT (TenantSession.insert): on PostgreSQL, COPY_ROWS or more go by
COPY, on SQLite they go in multi-row INSERTs of MANY_ROWS, then half as many...
(db/driver.py), and they read back exactly as the same rows written one statement a row
do, on both databases; a constraint they break raises as any INSERT's does and writes
none of them."""

from datetime import UTC, datetime, timedelta

import asyncpg
import pytest
from sqlalchemy import exc

from homebase.db import driver
from homebase.db.tenancy import TenantSession
from homebase.models import OutboxEvent

events = OutboxEvent.__table__
NOW = datetime(2026, 11, 29, 12, 0, 0, 123000, tzinfo=UTC)


def _rows(prefix: str, count: int) -> list[dict]:
    return [
        {
            "id": f"evt_{prefix}{index:05d}",
            "type": "contact.created",
            "data": {"id": f"con_{index}", "tags": ["buyer", "vip"], "note": "naïve ✓", "n": index},
            "occurred_at": NOW + timedelta(microseconds=index * 1000),
            "dispatched_at": None if index % 2 else NOW,
            "contact_id": None if index % 3 == 0 else f"con_{index}",
        }
        for index in range(count)
    ]


@pytest.fixture
def copies(monkeypatch) -> list[int]:
    """How many rows each COPY sent (asyncpg's copy_records_to_table, spied on)."""
    sent: list[int] = []
    original = asyncpg.Connection.copy_records_to_table

    async def spy(self, table_name, *, records, **options):
        sent.append(len(records))
        return await original(self, table_name, records=records, **options)

    monkeypatch.setattr(asyncpg.Connection, "copy_records_to_table", spy)
    return sent


@pytest.fixture
def statements(monkeypatch) -> list[int]:
    """How many rows each of SQLite's multi-row INSERTs carried (spied on)."""
    carried: list[int] = []
    original = driver._many

    def spy(connection, statements):
        carried.extend(len(values) // (len(_rows("", 1)[0]) + 1) for _, values in statements)
        return original(connection, statements)

    monkeypatch.setattr(driver, "_many", spy)
    return carried


async def _insert(runtime, workspace_id: str, rows: list[dict] | dict) -> None:
    """The rows inserted after a read, as an import's batch does: a PostgreSQL write
    transaction's first statement goes through SQLAlchemy, which sends BEGIN with it."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id)
        await session.fetch_one(session.select(events).limit(1))
        await session.insert(events, rows)


async def _read(runtime, workspace_id: str, prefix: str) -> list[dict]:
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, workspace_id)
        found = await session.fetch_all(
            session.select(events).where(events.c.id.like(f"evt_{prefix}%")).order_by(events.c.id)
        )
    return [{key: row[key] for key in _rows("", 1)[0]} for row in found]


async def test_many_rows_read_back_as_rows_written_one_statement_a_row(
    runtime, tenant, copies, statements, backend
):
    many = driver.COPY_ROWS + 7
    await _insert(runtime, tenant.id, _rows("w", 2))  # the statement's first run: SQLAlchemy's
    statements.clear()
    await _insert(runtime, tenant.id, _rows("a", many))
    assert statements == ([] if backend == "postgres" else [32, 16, 8, 1])
    for row in _rows("b", many):
        await _insert(runtime, tenant.id, row)  # one statement each
    copied, executed = await _read(runtime, tenant.id, "a"), await _read(runtime, tenant.id, "b")
    assert len(copied) == many
    assert [{**row, "id": row["id"][5:]} for row in copied] == [
        {**row, "id": row["id"][5:]} for row in executed
    ]
    assert copied == _rows("a", many)
    assert copies == ([many] if backend == "postgres" else [])


async def test_a_constraint_broken_among_many_rows_raises_and_writes_none_of_them(
    runtime, tenant, copies, statements, backend
):
    await _insert(runtime, tenant.id, _rows("w", 2))
    statements.clear()
    rows = _rows("c", driver.COPY_ROWS)
    rows[-1]["id"] = rows[0]["id"]  # the primary key twice, in SQLite's third INSERT
    with pytest.raises(exc.IntegrityError):
        await _insert(runtime, tenant.id, rows)
    assert await _read(runtime, tenant.id, "c") == []
    assert copies == ([driver.COPY_ROWS] if backend == "postgres" else [])
    assert statements == ([] if backend == "postgres" else [32, 16, 2])
