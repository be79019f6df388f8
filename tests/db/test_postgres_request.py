"""A /v1 read request's connection on PostgreSQL (db/postgres.py, db/request.py): it runs
without a transaction; SELECTs built once run straight on asyncpg and give what
SQLAlchemy's own execution gives; asyncpg's errors arrive as SQLAlchemy's; a connection
that died is replaced. The read-only rule holds on both databases."""

import asyncio
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import asyncpg
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
    cast,
    delete,
    exc,
    func,
    insert,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql

from homebase.db import direct
from homebase.db.direct import ReadOnlyRequest
from homebase.db.engine import Database
from homebase.db.postgres import PgDriver
from homebase.db.types import UTCDateTime
from tests.db.test_direct_parity import _typed
from tests.support import POSTGRES_URL, own_postgres_database

metadata = MetaData()
things = Table(
    "pg_things",
    metadata,
    Column("id", String, primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("active", Boolean, nullable=False),
    Column("data", JSON),
    Column("at", UTCDateTime, nullable=False),
    Column("note", String),
    Column("price", Numeric(12, 2)),
)
MOMENT = datetime(2026, 11, 25, 7, 22, 3, 123456, tzinfo=UTC)
ROWS = [
    {
        "id": "t1",
        "seq": 1,
        "active": True,
        "data": {"tags": ["a", "b"], "n": 1.5, "nested": {"x": None}},
        "at": MOMENT,
        "note": "first",
        "price": Decimal("10.50"),
    },
    {
        "id": "t2",
        "seq": 2,
        "active": False,
        "data": [1, 2, 3],
        "at": MOMENT + timedelta(days=1),
        "note": None,
        "price": None,
    },
    {
        "id": "t3",
        "seq": 3,
        "active": True,
        "data": None,
        "at": MOMENT - timedelta(microseconds=1),
        "note": "ünïcode ✓",
        "price": Decimal("0.01"),
    },
]
COLUMNS = [things.c.id, things.c.seq, things.c.active, things.c.data, things.c.at, things.c.note]
INSERT = direct.once(insert(things))
BY_ID = direct.once(select(*COLUMNS).where(things.c.id == bindparam("id")))
PAGE = direct.once(
    select(*COLUMNS)
    .where(things.c.seq >= bindparam("from_seq"))
    .order_by(things.c.seq.desc())
    .limit(bindparam("limit"))
)
LABELLED = direct.once(
    select(things.c.id.label("thing"), things.c.at.label("when")).order_by(things.c.id)
)
COUNT = direct.once(select(func.count().label("n")).where(things.c.active.is_(True)))
RENAME = direct.once(
    update(things)
    .where(things.c.seq >= bindparam("from_seq"))
    .values(note=bindparam("new_note"), active=bindparam("now_active"))
    .returning(things.c.id, things.c.note, things.c.active, things.c.at)
)
TOUCH = direct.once(
    update(things).where(things.c.seq > bindparam("above")).values(at=bindparam("new_at"))
)
REMOVE = direct.once(delete(things).where(things.c.id == bindparam("id")))
WITH_NUMERIC = direct.once(select(things.c.id, things.c.price).where(things.c.id == "t1"))


@pytest.fixture
async def database():
    """A PostgreSQL database of its own holding ROWS (committed)."""
    async with own_postgres_database("homebase_pgreq", pool_size=2) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
            await connection.execute(insert(things), ROWS)
        yield database


async def _direct_then_sqlalchemy(database, statement, parameters):
    """The statement run directly and through SQLAlchemy on read requests' connections."""
    async with database.request_transaction(write=False) as connection:
        assert isinstance(connection.homebase_driver, PgDriver)
        outcome = await direct.execute(connection, statement, parameters)
        assert outcome is not None, "the direct path declined a statement"
        plain = statement.execution_options(**{direct.ONCE: False})
        result = await connection.execute(plain, parameters)
        sqlalchemy_rows = [dict(row) for row in result.mappings()]
    return outcome.rows, sqlalchemy_rows


@pytest.mark.parametrize(
    "statement, parameters",
    [
        (BY_ID, {"id": "t1"}),
        (BY_ID, {"id": "t3"}),
        (BY_ID, {"id": "missing"}),
        (PAGE, {"from_seq": 1, "limit": 10}),
        (LABELLED, None),
        (COUNT, None),
    ],
    ids=["select", "select-unicode-tz", "select-none", "page", "labels", "count"],
)
async def test_direct_path_gives_what_sqlalchemy_gives(database, statement, parameters):
    direct_rows, sqlalchemy_rows = await _direct_then_sqlalchemy(database, statement, parameters)
    assert _typed(direct_rows) == _typed(sqlalchemy_rows)


async def test_stored_rows_are_the_processed_values_in_column_order(database):
    async with database.request_transaction(write=False) as connection:
        outcome = await direct.execute(connection, PAGE, {"from_seq": 1, "limit": 2}, stored=True)
    assert outcome is not None and outcome.stored is False
    assert outcome.keys == ("id", "seq", "active", "data", "at", "note")
    assert outcome.rows[0] == ("t3", 3, True, None, MOMENT - timedelta(microseconds=1), "ünïcode ✓")


async def test_a_column_whose_processor_needs_its_type_is_left_to_sqlalchemy(database):
    async with database.request_transaction(write=False) as connection:
        assert await direct.execute(connection, WITH_NUMERIC) is None
        row = (await connection.execute(WITH_NUMERIC)).mappings().one()
    assert row["price"] == Decimal("10.50")


BAD_CAST = direct.once(select(cast(literal("not a number"), Integer).label("n")))


async def test_driver_errors_are_sqlalchemys_exceptions(database):
    """The same SQLSTATE, in an exception the same handlers catch: SQLAlchemy's own
    translation gives DBAPIError for this one, the direct path its PEP 249 class
    (DataError, a DBAPIError)."""
    errors = []
    for statement in (BAD_CAST, BAD_CAST.execution_options(**{direct.ONCE: False})):
        with pytest.raises(exc.DBAPIError) as caught:
            async with database.request_transaction(write=False) as connection:
                if statement is BAD_CAST:
                    await direct.execute(connection, statement)
                else:
                    await connection.execute(statement)
        errors.append(caught.value)
    direct_error, sqlalchemy_error = errors
    assert isinstance(direct_error, type(sqlalchemy_error))
    assert isinstance(direct_error, exc.DataError)
    assert direct_error.orig.sqlstate == sqlalchemy_error.orig.sqlstate == "22P02"
    assert not direct_error.connection_invalidated
    assert "not a number" in str(direct_error.orig)


async def test_a_read_runs_without_a_transaction_and_writes_nothing(database):
    async with database.request_transaction(write=False) as connection:
        assert await direct.execute(connection, BY_ID, {"id": "t1"}) is not None
        assert not connection.homebase_driver.asyncpg.is_in_transaction()
        await connection.execute(text("SELECT 1"))  # SQLAlchemy's path: no BEGIN either
        assert not connection.homebase_driver.asyncpg.is_in_transaction()
        for statement in (REMOVE, TOUCH):
            with pytest.raises(ReadOnlyRequest):
                await direct.execute(connection, statement, {"id": "t1", "above": 0})
    async with database.transaction(write=False) as connection:
        remaining = (await connection.execute(select(things.c.id))).scalars().all()
    assert sorted(remaining) == ["t1", "t2", "t3"]


async def test_a_write_request_runs_in_one_transaction_on_asyncpg(database):
    """A write request begins its transaction on asyncpg at its first statement that
    writes (reads before it run on their own); its statements, direct or through
    SQLAlchemy, run inside it, and it rolls back when the block raises."""
    with pytest.raises(RuntimeError, match="undo"):
        async with database.request_transaction(write=True) as connection:
            driver = connection.homebase_driver
            assert isinstance(driver, PgDriver) and not driver.in_transaction
            assert await direct.execute(connection, BY_ID, {"id": "t1"}) is not None
            assert not driver.asyncpg.is_in_transaction()
            removed = await direct.execute(connection, REMOVE, {"id": "t1"})
            assert removed is not None and removed.rowcount == 1
            assert driver.in_transaction and driver.asyncpg.is_in_transaction()
            await connection.execute(delete(things).where(things.c.id == "t2"))
            raise RuntimeError("undo")
    assert not driver.in_transaction and not driver.asyncpg.is_in_transaction()
    async with database.transaction(write=False) as connection:
        remaining = (await connection.execute(select(things.c.id))).scalars().all()
    assert sorted(remaining) == ["t1", "t2", "t3"]
    async with database.request_transaction(write=True) as connection:
        await direct.execute(connection, REMOVE, {"id": "t1"})
        await connection.execute(delete(things).where(things.c.id == "t2"))
    async with database.transaction(write=False) as connection:
        remaining = (await connection.execute(select(things.c.id))).scalars().all()
    assert remaining == ["t3"]


@pytest.mark.parametrize(
    "statement, parameters",
    [
        (RENAME, {"from_seq": 2, "new_note": "renamed", "now_active": False}),
        (TOUCH, {"above": 1, "new_at": MOMENT + timedelta(days=9)}),
        (REMOVE, {"id": "t2"}),
        (REMOVE, {"id": "missing"}),
    ],
    ids=["update-returning", "update", "delete", "delete-none"],
)
async def test_writes_on_asyncpg_give_what_sqlalchemy_gives(database, statement, parameters):
    """The same write, direct then through SQLAlchemy, each in a write request rolled
    back: the same rows returned and the same row count."""
    results = []
    for run_direct in (True, False):
        with pytest.raises(RuntimeError, match="undo"):
            async with database.request_transaction(write=True) as connection:
                if run_direct:
                    outcome = await direct.execute(connection, statement, parameters)
                    assert outcome is not None, "the direct path declined a write"
                    results.append((outcome.rows, outcome.rowcount))
                else:
                    plain = statement.execution_options(**{direct.ONCE: False})
                    result = await connection.execute(plain, parameters)
                    rows = [dict(row) for row in result.mappings()] if result.returns_rows else None
                    results.append((rows, result.rowcount))
                raise RuntimeError("undo")
    assert results[0] == results[1]


async def test_an_insert_of_several_rows_runs_as_one_executemany(database):
    rows = [
        {"id": f"n{i}", "seq": 10 + i, "active": True, "data": {"i": i}, "at": MOMENT}
        for i in range(3)
    ]
    async with database.request_transaction(write=True) as connection:
        outcome = await direct.execute(connection, INSERT, rows)
        assert outcome is not None and outcome.rowcount == 3
    async with database.transaction(write=False) as connection:
        stored = (
            await connection.execute(select(things.c.id, things.c.data).where(things.c.seq >= 10))
        ).all()
    assert sorted((row.id, row.data) for row in stored) == [
        ("n0", {"i": 0}),
        ("n1", {"i": 1}),
        ("n2", {"i": 2}),
    ]


async def test_connections_go_back_to_the_pool_with_the_adapters_own_transactions(database):
    """A request's connection runs in autocommit; whoever takes it from the pool next
    (a worker's transaction) gets the adapter's BEGIN back."""
    for _ in range(3):
        async with database.request_transaction(write=False) as connection:
            await direct.execute(connection, BY_ID, {"id": "t1"})
    database.parking.release()
    async with database.transaction(write=False) as connection:
        await connection.execute(select(things.c.id))
        raw = await connection.get_raw_connection()
        assert raw.driver_connection.is_in_transaction()


async def test_a_connection_closed_while_parked_is_replaced_before_use(database):
    async with database.request_transaction(write=False) as connection:
        backend = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        parked = connection.homebase_driver.asyncpg
    # The connection is parked; its server process is killed from outside.
    killer = await asyncpg.connect(POSTGRES_URL.replace("+asyncpg", "", 1))
    try:
        assert await killer.fetchval("SELECT pg_terminate_backend($1)", backend)
    finally:
        await killer.close()
    for _ in range(200):  # asyncpg sees the socket end on a later turn of the loop
        if parked.is_closed():
            break
        await asyncio.sleep(0.01)
    assert parked.is_closed()
    async with database.request_transaction(write=False) as connection:
        assert connection.homebase_driver.asyncpg is not parked
        outcome = await direct.execute(connection, BY_ID, {"id": "t1"})
    assert outcome is not None and outcome.rows[0]["id"] == "t1"


SUICIDE = direct.once(select(func.pg_terminate_backend(func.pg_backend_pid()).label("gone")))


async def test_a_connection_lost_mid_statement_answers_unavailable_and_is_replaced(database):
    with pytest.raises(exc.DBAPIError) as caught:
        async with database.request_transaction(write=False) as connection:
            lost = connection.homebase_driver.asyncpg
            await direct.execute(connection, SUICIDE)
    assert caught.value.connection_invalidated  # db/unavailable.py: 503 with Retry-After
    for _ in range(3):  # the next requests get a live connection
        async with database.request_transaction(write=False) as connection:
            assert connection.homebase_driver.asyncpg is not lost
            outcome = await direct.execute(connection, BY_ID, {"id": "t1"})
        assert outcome is not None and outcome.rows[0]["id"] == "t1"


async def test_the_switch_turns_the_direct_path_off():
    async with own_postgres_database(
        "homebase_pgreq", pool_size=1, postgres_direct=False
    ) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
        async with database.request_transaction(write=False) as connection:
            assert await direct.execute(connection, BY_ID, {"id": "t1"}) is None


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_read_request_refuses_statements_that_write(runtime, tenant):
    """GET runs without a transaction on PostgreSQL: a write there would not be atomic,
    so the connection refuses it, on both databases, whichever path it takes."""
    from homebase.db.tenancy import TenantSession
    from homebase.models import Contact

    contacts = Contact.__table__
    async with runtime.db.request_transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        with pytest.raises(ReadOnlyRequest):
            await session.execute(session.update(contacts).values(first_name="x"))
        with pytest.raises(ReadOnlyRequest):
            await connection.execute(update(contacts).values(first_name="x"))
        with pytest.raises(ReadOnlyRequest):
            await session.insert(contacts, {"id": "con_x", "first_name": "x"})


async def _refusing_server(sqlstate: str, message: str):
    """A loopback server speaking just enough of PostgreSQL's protocol to refuse every
    connection with a FATAL error, as a server shutting down or starting up does."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                length = int.from_bytes(await reader.readexactly(4), "big")
                body = await reader.readexactly(length - 4)
                if body[:4] == (80877103).to_bytes(4, "big"):  # SSLRequest: no SSL here
                    writer.write(b"N")
                    await writer.drain()
                    continue
                fields = (
                    b"SFATAL\x00C" + sqlstate.encode() + b"\x00M" + message.encode() + b"\x00\x00"
                )
                writer.write(b"E" + (len(fields) + 4).to_bytes(4, "big") + fields)
                await writer.drain()
                break
        except asyncio.IncompleteReadError:
            pass
        finally:
            writer.close()

    return await asyncio.start_server(answer, "127.0.0.1", 0)


async def test_a_server_refusing_connections_answers_unavailable_not_500():
    """Seen in the PostgreSQL restart fault test: a new connection refused with "the
    database system is shutting down" came out of the pool checkout unwrapped (the
    driver's own Error class) and answered 500."""
    from homebase.db.unavailable import DatabaseUnavailable

    server = await _refusing_server("57P03", "the database system is shutting down")
    port = server.sockets[0].getsockname()[1]
    database = Database(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/any", pool_size=1)
    try:
        with pytest.raises(DatabaseUnavailable):
            async with database.request_transaction(write=False):
                pass
        with pytest.raises(DatabaseUnavailable):
            async with database.request_transaction(write=True):
                pass
    finally:
        await database.dispose()
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize(
    "driver_value, expected",
    [
        (MOMENT, MOMENT),  # asyncpg's own: aware, in UTC
        (MOMENT.astimezone(timezone(timedelta(hours=-5))), MOMENT),
        (MOMENT.replace(tzinfo=None), MOMENT),
        (None, None),
    ],
    ids=["utc", "offset", "naive", "null"],
)
def test_timestamps_read_back_as_aware_utc_in_one_step(driver_value, expected):
    """UTCDateTime's PostgreSQL result processor is one function giving what
    TypeDecorator's chain (the impl's, then process_result_value) gives."""
    dialect = postgresql.asyncpg.dialect()
    single = UTCDateTime().dialect_impl(dialect).result_processor(dialect, None)
    assert single is not None
    chained = UTCDateTime().process_result_value(driver_value, dialect)
    assert single(driver_value) == chained == expected
    if expected is not None:
        assert single(driver_value).tzinfo is UTC
