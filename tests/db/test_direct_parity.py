"""db/direct.py against SQLAlchemy's own execution, on SQLite (PostgreSQL's:
tests/db/test_postgres_request.py): the same statements, run
both ways on the same connection, give the same rows (keys, Python values and types),
the same rowcounts and the same exceptions. The direct path compiles statements built
once with the public `statement.compile()` and processes values with the types' public
bind and result processors; this holds it to what SQLAlchemy does with them."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Integer,
    MetaData,
    Numeric,
    String,
    Table,
    bindparam,
    delete,
    exc,
    func,
    insert,
    select,
    update,
)

from homebase.db import direct
from homebase.db.engine import Database
from homebase.db.tenancy import TenantSession, tenant_select
from homebase.db.types import UTCDateTime
from homebase.models import Contact

metadata = MetaData()
things = Table(
    "things",
    metadata,
    Column("id", String, primary_key=True),
    Column("workspace_id", String, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("active", Boolean, nullable=False),
    Column("price", Numeric(12, 2)),
    Column("data", JSON),
    Column("at", UTCDateTime, nullable=False),
    Column("note", String),
)

MOMENT = datetime(2026, 11, 25, 7, 22, 3, 123456, tzinfo=UTC)
ROWS = [
    {
        "id": "t1",
        "workspace_id": "ws_a",
        "seq": 1,
        "active": True,
        "price": Decimal("10.50"),
        "data": {"tags": ["a", "b"], "n": 1.5, "nested": {"x": None}},
        "at": MOMENT,
        "note": "first",
    },
    {
        "id": "t2",
        "workspace_id": "ws_a",
        "seq": 2,
        "active": False,
        "price": None,
        "data": [1, 2, 3],
        "at": MOMENT + timedelta(days=1),
        "note": None,
    },
    {
        "id": "t3",
        "workspace_id": "ws_b",
        "seq": 3,
        "active": True,
        "price": Decimal("0.01"),
        "data": None,
        "at": MOMENT - timedelta(microseconds=1),
        "note": "ünïcode ✓",
    },
]

# Statements built once, as the services build theirs (direct.once).
INSERT = direct.once(insert(things))
INSERT_RETURNING = direct.once(
    insert(things).returning(
        things.c.id, things.c.at, things.c.data, things.c.active, things.c.price
    )
)
BY_ID = direct.once(select(things).where(things.c.id == bindparam("id")))
PAGE = direct.once(
    select(things)
    .where(things.c.workspace_id == bindparam("ws"))
    .where(things.c.seq >= bindparam("from_seq"))
    .order_by(things.c.seq.desc())
    .limit(bindparam("limit"))
)
LABELLED = direct.once(
    select(things.c.id.label("thing"), things.c.price, things.c.at.label("when"))
    .where(things.c.workspace_id == "ws_a")
    .order_by(things.c.id)
)
COUNT = direct.once(select(func.count().label("n")).where(things.c.active.is_(True)))
RENAME = direct.once(
    update(things)
    .where(things.c.workspace_id == bindparam("ws"))
    .values(note=bindparam("new_note"), active=bindparam("now_active"))
    .returning(things.c.id, things.c.note, things.c.active, things.c.at)
)
TOUCH = direct.once(
    update(things).where(things.c.seq > bindparam("above")).values(at=bindparam("new_at"))
)
REMOVE = direct.once(delete(things).where(things.c.id == bindparam("id")))


@pytest.fixture
async def database(tmp_path):
    """A SQLite database holding ROWS (committed)."""
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'parity.sqlite3'}")
    async with database.transaction() as connection:
        await connection.run_sync(metadata.create_all)
        await connection.execute(insert(things), ROWS)
    yield database
    await database.dispose()


async def _begun(database):
    connection = await database.engine.connect()
    await connection.begin()
    return connection


async def _both(connection, statement, parameters=None):
    """(direct rows, direct rowcount), (SQLAlchemy rows, rowcount), each run in its own
    transaction (rolled back between them), so each sees the same data."""
    outcome = await direct.execute(connection, statement, parameters)
    assert outcome is not None, "the direct path declined a statement it should run"
    direct_rows = outcome.rows
    await connection.rollback()
    await connection.begin()
    result = await connection.execute(statement, parameters)
    sqlalchemy_rows = [dict(row) for row in result.mappings()] if result.returns_rows else None
    return (direct_rows, outcome.rowcount), (sqlalchemy_rows, result.rowcount)


def _typed(rows):
    """Values with their exact types, so 1 == True or Decimal("1") == 1 cannot hide a
    difference."""
    return (
        None
        if rows is None
        else [{key: (type(value), value) for key, value in row.items()} for row in rows]
    )


@pytest.mark.parametrize(
    "statement, parameters",
    [
        (BY_ID, {"id": "t1"}),
        (BY_ID, {"id": "t3"}),
        (BY_ID, {"id": "missing"}),
        (PAGE, {"ws": "ws_a", "from_seq": 1, "limit": 10}),
        (LABELLED, None),
        (COUNT, None),
        (RENAME, {"ws": "ws_a", "new_note": "renamed", "now_active": False}),
        (TOUCH, {"above": 1, "new_at": MOMENT + timedelta(hours=5)}),
        (REMOVE, {"id": "t2"}),
        (REMOVE, {"id": "missing"}),
    ],
    ids=[
        "select",
        "select-unicode-tz",
        "select-none",
        "page",
        "labels",
        "count",
        "update-returning",
        "update-rowcount",
        "delete",
        "delete-nothing",
    ],
)
async def test_direct_path_gives_what_sqlalchemy_gives(database, statement, parameters):
    connection = await _begun(database)
    try:
        (direct_rows, direct_count), (sqlalchemy_rows, sqlalchemy_count) = await _both(
            connection, statement, parameters
        )
    finally:
        await connection.rollback()
        await connection.close()
    assert _typed(direct_rows) == _typed(sqlalchemy_rows)
    assert direct_count == sqlalchemy_count


async def test_insert_with_returning_and_what_it_stored(database):
    row = {**ROWS[0], "id": "new"}
    connection = await _begun(database)
    try:
        (direct_rows, direct_count), (sqlalchemy_rows, sqlalchemy_count) = await _both(
            connection, INSERT_RETURNING, row
        )
        assert _typed(direct_rows) == _typed(sqlalchemy_rows)
        assert direct_count == sqlalchemy_count == 1
        # What each wrote reads back the same through SQLAlchemy.
        stored_by_sqlalchemy = dict(
            (await connection.execute(BY_ID, {"id": "new"})).mappings().one()
        )
        await connection.rollback()
        await connection.begin()
        assert await direct.execute(connection, INSERT, row) is not None
        stored_directly = dict((await connection.execute(BY_ID, {"id": "new"})).mappings().one())
    finally:
        await connection.rollback()
        await connection.close()
    assert _typed([stored_directly]) == _typed([stored_by_sqlalchemy])
    assert stored_directly["at"] == MOMENT and stored_directly["price"] == Decimal("10.50")


async def test_executemany_insert_stores_the_same_rows(database):
    fresh = [{**row, "id": f"new-{row['id']}"} for row in ROWS]
    connection = await _begun(database)
    try:
        outcome = await direct.execute(connection, INSERT, fresh)
        assert outcome is not None
        direct_rows = [
            dict(row)
            for row in (await connection.execute(select(things).order_by(things.c.id))).mappings()
        ]
        await connection.rollback()
        await connection.begin()
        await connection.execute(INSERT, fresh)
        sqlalchemy_rows = [
            dict(row)
            for row in (await connection.execute(select(things).order_by(things.c.id))).mappings()
        ]
    finally:
        await connection.rollback()
        await connection.close()
    assert _typed(direct_rows) == _typed(sqlalchemy_rows)
    assert len(direct_rows) == 6


async def test_driver_errors_are_sqlalchemys_exceptions(database):
    connection = await _begun(database)
    try:
        with pytest.raises(exc.IntegrityError) as direct_error:
            await direct.execute(connection, INSERT, ROWS[0])
        await connection.rollback()
        await connection.begin()
        with pytest.raises(exc.IntegrityError) as sqlalchemy_error:
            await connection.execute(INSERT, ROWS[0])
    finally:
        await connection.rollback()
        await connection.close()
    assert type(direct_error.value.orig) is type(sqlalchemy_error.value.orig)
    assert str(direct_error.value.orig) == str(sqlalchemy_error.value.orig)


async def test_a_missing_parameter_is_refused_before_sqlite_sees_it(database):
    connection = await _begun(database)
    try:
        with pytest.raises(exc.StatementError, match="from_seq"):
            await direct.execute(connection, PAGE, {"ws": "ws_a", "limit": 5})
    finally:
        await connection.rollback()
        await connection.close()


async def test_tenant_templates_on_a_real_table(runtime, tenant):
    """A TenantSession template over the contacts table (the shape of the hot paths) reads
    the same rows both ways."""
    contacts = Contact.__table__
    for name in ("Dana", "Eli"):
        response = await tenant.client.post(
            "/v1/contacts",
            json={"first_name": name, "email": f"{name}@x.test"},
            headers=tenant.headers,
        )
        assert response.status_code == 201, response.text
    statement = tenant_select(contacts).where(contacts.c.first_name == bindparam("name"))
    # A request's connection: on PostgreSQL only those run statements directly.
    async with runtime.db.request_transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        direct_row = await session.fetch_one(statement, {"name": "Dana"})
        plain = statement.execution_options(**{direct.ONCE: False})
        sqlalchemy_row = await session.fetch_one(plain, {"name": "Dana"})
    assert direct_row is not None and direct_row["first_name"] == "Dana"
    assert _typed([direct_row]) == _typed([sqlalchemy_row])


async def test_nothing_runs_directly_while_sqlalchemy_cursor_events_are_listened_to(database):
    """Tracing and metrics hook SQLAlchemy's cursor events: they see every statement."""
    from sqlalchemy import event

    seen = []

    def listener(conn, cursor, statement, parameters, context, executemany):
        seen.append(statement)

    event.listen(database.engine.sync_engine, "before_cursor_execute", listener)
    try:
        async with database.transaction() as connection:
            assert await direct.execute(connection, BY_ID, {"id": "t1"}) is None
            await connection.execute(BY_ID, {"id": "t1"})
    finally:
        event.remove(database.engine.sync_engine, "before_cursor_execute", listener)
    assert seen and "FROM things" in seen[-1]
    async with database.transaction() as connection:
        assert await direct.execute(connection, BY_ID, {"id": "t1"}) is not None


async def test_the_switch_turns_the_direct_path_off(tmp_path):
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'off.sqlite3'}", sqlite_direct=False)
    try:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
            assert await direct.execute(connection, BY_ID, {"id": "t1"}) is None
        async with database.request_transaction(write=False) as connection:
            assert await direct.execute(connection, BY_ID, {"id": "t1"}) is None
    finally:
        await database.dispose()
