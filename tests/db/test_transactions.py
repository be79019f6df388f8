"""The one execution path (db/engine.py, db/tenancy.py), the same on SQLite and on
PostgreSQL: a read runs in AUTOCOMMIT and may not write; a write runs in one transaction,
committed when its block ends and rolled back when it raises; a constraint error is
raised by the statement that caused it; `stream` reads a long result in batches; a
connection that died is replaced and answers 503 meanwhile."""

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import asyncpg
import pytest
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    event,
    exc,
    func,
    select,
    text,
)
from sqlalchemy.dialects import postgresql

from homebase.db import driver, tenancy
from homebase.db.engine import Database
from homebase.db.tenancy import ReadOnly, TenantSession
from homebase.db.types import UTCDateTime
from homebase.db.unavailable import DatabaseUnavailable
from homebase.models import Contact
from tests.support import POSTGRES_URL, own_postgres_database

metadata = MetaData()
things = Table(
    "tx_things",
    metadata,
    Column("workspace_id", String, nullable=False),
    Column("id", String, primary_key=True),
    Column("seq", Integer, nullable=False),
)
notes = Table(  # rows beside a thing's, inserted with it (TenantSession.insert_together)
    "tx_notes",
    metadata,
    Column("workspace_id", String, nullable=False),
    Column("id", String, primary_key=True),
    Column("thing_id", String, nullable=False),
)
contacts = Contact.__table__
MOMENT = datetime(2026, 11, 25, 7, 22, 3, 123456, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request, tmp_path):
    if request.param == "sqlite":
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'tx.sqlite3'}")
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
        yield database
        await database.dispose()
        return
    async with own_postgres_database("homebase_tx", pool_size=2) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
        yield database


async def _driver_in_transaction(connection) -> bool:
    driver = (await connection.get_raw_connection()).driver_connection
    if hasattr(driver, "is_in_transaction"):  # asyncpg
        return driver.is_in_transaction()
    return driver.in_transaction  # db/sqlite.py's Driver


async def _count(database: Database) -> int:
    async with database.transaction(write=False) as connection:
        return (await connection.execute(select(func.count()).select_from(things))).scalar_one()


async def test_a_read_runs_without_a_transaction_and_may_not_write(database):
    async with database.transaction(write=False) as connection:
        session = TenantSession(connection, "ws_a")
        assert not session.writes
        await session.fetch_all(session.select(things))
        assert not await _driver_in_transaction(connection)
        with pytest.raises(ReadOnly):
            await session.insert(things, {"id": "t1", "seq": 1})
        with pytest.raises(ReadOnly):
            await session.execute(session.update(things).values(seq=2))
        with pytest.raises(ReadOnly):
            await session.fetch_one(session.update(things).values(seq=2).returning(things.c.id))
    assert await _count(database) == 0


async def test_a_write_runs_in_one_transaction_committed_at_the_end(database):
    async with database.transaction() as connection:
        session = TenantSession(connection, "ws_a")
        assert session.writes
        await session.insert(things, {"id": "t1", "seq": 1})
        assert await _driver_in_transaction(connection)
        assert await _count(database) == 0  # not yet committed: another connection sees none
    assert await _count(database) == 1


async def test_a_write_that_raises_leaves_nothing(database):
    with pytest.raises(RuntimeError, match="after writing"):
        async with database.transaction() as connection:
            await TenantSession(connection, "ws_a").insert(things, {"id": "t1", "seq": 1})
            raise RuntimeError("after writing")
    assert await _count(database) == 0


async def test_a_constraint_error_is_raised_by_the_statement_that_caused_it(database):
    async with database.transaction() as connection:
        await TenantSession(connection, "ws_a").insert(things, {"id": "t1", "seq": 1})
    for rows in ({"id": "t1", "seq": 2}, [{"id": "t2", "seq": 2}, {"id": "t2", "seq": 3}]):
        reached = []
        with pytest.raises(exc.IntegrityError):
            async with database.transaction() as connection:
                await TenantSession(connection, "ws_a").insert(things, rows)
                reached.append("the statement after")
        assert reached == []
    assert await _count(database) == 1


async def test_several_rows_go_in_one_statement(database, monkeypatch):
    """Through SQLAlchemy's execution (what a tracer sees): one INSERT. A kept statement
    on the driver connection sends the rows in one executemany call (db/driver.py)."""
    monkeypatch.setattr(driver, "DIRECT", False)
    executed: list[str] = []

    @event.listens_for(database.engine.sync_engine, "before_cursor_execute")
    def _count_statements(_conn, _cursor, statement, *_args):
        executed.append(statement)

    try:
        async with database.transaction() as connection:
            rows = [{"id": f"t{n}", "seq": n} for n in range(25)]
            await TenantSession(connection, "ws_a").insert(things, rows)
    finally:
        event.remove(database.engine.sync_engine, "before_cursor_execute", _count_statements)
    inserts = [sql for sql in executed if sql.lstrip().upper().startswith("INSERT")]
    assert len(inserts) == 1, executed
    assert await _count(database) == 25


async def test_stream_reads_a_long_result_in_batches(database, monkeypatch):
    monkeypatch.setattr(tenancy, "STREAM_BATCH", 7)
    async with database.transaction() as connection:
        rows = [{"id": f"t{n:03}", "seq": n} for n in range(30)]
        await TenantSession(connection, "ws_a").insert(things, rows)
        await TenantSession(connection, "ws_b").insert(things, {"id": "other", "seq": 99})
    async with database.transaction(write=False) as connection:
        session = TenantSession(connection, "ws_a")
        statement = session.select(things, things.c.id, things.c.seq)
        streamed = [row async for row in session.stream(statement, things.c.id)]
    assert streamed == [{"id": f"t{n:03}", "seq": n} for n in range(30)]  # ws_b's row: not


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_read_request_refuses_statements_that_write(runtime, tenant):
    """GET runs in AUTOCOMMIT: a write there would commit on its own, so the session
    refuses it, on both databases."""
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        with pytest.raises(ReadOnly):
            await session.execute(session.update(contacts).values(first_name="x"))
        with pytest.raises(ReadOnly):
            await session.insert(contacts, {"id": "con_x", "first_name": "x"})


async def test_a_connection_is_kept_between_transactions_unless_its_block_was_cut_short(
    database,
):
    """A transaction's connection, valid and outside a transaction when its block ended
    (normally or by an error), serves the next transaction of its kind; one whose block
    was cancelled (a statement may have been cut off mid-protocol) goes back to the pool,
    and nothing is kept once the Database is disposed."""
    async with database.transaction(write=False) as connection:
        first = connection
        await connection.execute(select(func.count()).select_from(things))  # SQLAlchemy's
    async with database.transaction(write=False) as connection:
        assert connection is first
    with pytest.raises(LookupError):  # an error of the block's own: the connection is fine
        async with database.transaction() as connection:
            written = connection
            await TenantSession(connection, "ws_a").insert(things, {"id": "gone", "seq": 1})
            raise LookupError
    async with database.transaction() as connection:
        assert connection is written
        assert await _count(database) == 0  # the block that raised rolled back
    with pytest.raises(asyncio.CancelledError):
        async with database.transaction(write=False) as connection:
            raise asyncio.CancelledError
    assert connection.closed
    async with database.transaction(write=False) as connection:
        assert connection is not first
    await database.dispose()
    assert connection.closed and first.closed and written.closed


async def test_blocks_past_the_pool_size_wait_their_turn_and_get_the_kept_connection():
    """At most pool_size blocks of a kind hold a connection at once; the others wait their
    turn (never on SQLAlchemy's pool, which a kept connection is not in) and take the
    connection the block before them kept: with one connection and three blocks at once,
    each runs in turn on the same connection, none times out."""
    async with own_postgres_database("homebase_tx", pool_size=1, pool_timeout=60) as database:
        held, release = asyncio.Event(), asyncio.Event()
        ran: list[int] = []

        used = set()

        async def block(number: int) -> None:
            async with database.transaction(write=False) as connection:
                if number == 0:
                    held.set()
                    await release.wait()
                await connection.execute(select(func.now()))
                ran.append(number)
                used.add(id(connection))

        first = asyncio.create_task(block(0))
        await held.wait()
        others = [asyncio.create_task(block(number)) for number in (1, 2)]
        for _ in range(3):  # each runs to its first wait: its turn
            await asyncio.sleep(0)
        assert database._turns[False].locked() and ran == []
        release.set()
        await asyncio.gather(first, *others)
        assert sorted(ran) == [0, 1, 2] and len(used) == 1  # one connection, handed on
        assert len(database._idle[False]) == 1  # the last block kept it


async def test_a_connection_lost_mid_statement_answers_unavailable_and_is_replaced():
    async with own_postgres_database("homebase_tx", pool_size=1) as database:
        suicide = select(func.pg_terminate_backend(func.pg_backend_pid()))
        with pytest.raises(exc.DBAPIError) as caught:
            async with database.transaction(write=False) as connection:
                await connection.execute(suicide)
        assert caught.value.connection_invalidated  # db/unavailable.py: 503 with Retry-After
        for _ in range(3):  # the next transactions get a live connection
            async with database.transaction(write=False) as connection:
                assert (await connection.execute(select(func.now()))).scalar_one() is not None


@pytest.mark.parametrize("write", [False, True], ids=["read", "write"])
async def test_a_connection_killed_while_pooled_answers_unavailable_once(write):
    """The pool does not pre-ping: a connection whose server process died while it sat
    in the pool fails its next block, as unavailability (503), and is replaced; a write's
    too, whose asyncpg transaction refuses to begin on a connection it knows is closed."""
    from homebase.db.unavailable import reason

    async with own_postgres_database("homebase_tx", pool_size=1) as database:
        async with database.transaction(write=write) as connection:
            backend = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        killer = await asyncpg.connect(POSTGRES_URL.replace("+asyncpg", "", 1))
        try:
            assert await killer.fetchval("SELECT pg_terminate_backend($1)", backend)
        finally:
            await killer.close()
        await asyncio.sleep(0.1)
        with pytest.raises(exc.DBAPIError) as caught:
            async with database.transaction(write=write) as connection:
                await connection.execute(select(func.now()))
        assert reason(caught.value) is not None
        for _ in range(2):  # replaced, not kept
            async with database.transaction(write=write) as connection:
                assert (await connection.execute(select(func.now()))).scalar_one() is not None


@pytest.mark.parametrize("path", ["kept", "sqlalchemy"])
async def test_a_connection_whose_protocol_lost_its_place_answers_unavailable_and_is_replaced(
    path, monkeypatch
):
    """asyncpg's InternalClientError ("cannot switch to state 12; another operation (2) is
    in progress", seen while PostgreSQL restarts under load) leaves a connection that must
    not be used again: on either way a statement runs (a kept statement on the driver, or
    SQLAlchemy's first run of it) it answers unavailable (503) and the pool replaces it."""
    from homebase.db.unavailable import reason

    now = select(func.now())
    async with own_postgres_database("homebase_tx", pool_size=1) as database:
        async with database.transaction(write=False) as connection:
            backend = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
            if path == "kept":
                await driver.execute(connection, now)  # the first run is SQLAlchemy's

        async def lost_its_place(*args, **kwargs):
            raise asyncpg.exceptions.InternalClientError(
                "cannot switch to state 12; another operation (2) is in progress"
            )

        monkeypatch.setattr(
            asyncpg.Connection, "fetch" if path == "kept" else "prepare", lost_its_place
        )
        try:
            with pytest.raises(exc.DBAPIError) as caught:
                async with database.transaction(write=False) as connection:
                    if path == "kept":
                        await driver.execute(connection, now)
                    else:
                        await connection.execute(now)
        finally:
            monkeypatch.undo()
        assert caught.value.connection_invalidated
        assert reason(caught.value) is not None
        async with database.transaction(write=False) as connection:
            replaced = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        assert replaced != backend


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
    server = await _refusing_server("57P03", "the database system is shutting down")
    port = server.sockets[0].getsockname()[1]
    database = Database(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/any", pool_size=1)
    try:
        for write in (False, True):
            with pytest.raises(DatabaseUnavailable):
                async with database.transaction(write=write):
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


KEPT_THINGS = tenancy.tenant_select(things).order_by(things.c.id)
KEPT_SEQ = tenancy.tenant_update(things).values(seq=things.c.seq + 1)


async def test_a_kept_statement_runs_on_the_driver_as_sqlalchemy_runs_it(database, monkeypatch):
    """The second run of a kept statement goes to the driver connection (db/driver.py):
    the same rows, types and row counts as SQLAlchemy's execution, in the transaction."""
    row = {"id": "t1", "seq": 1}
    with pytest.raises(RuntimeError, match="rolled back"):
        async with database.transaction() as connection:
            session = TenantSession(connection, "ws_a")
            for _ in range(3):  # the first through SQLAlchemy, then the driver's
                await session.insert(things, row)
                row = {"id": f"t{int(row['id'][1:]) + 1}", "seq": row["seq"] + 1}
            assert await session.execute(KEPT_SEQ) == 3
            assert [r["seq"] for r in await session.fetch_all(KEPT_THINGS)] == [2, 3, 4]
            raise RuntimeError("rolled back")
    assert await _count(database) == 0
    async with database.transaction() as connection:
        await TenantSession(connection, "ws_a").insert(things, [row, {"id": "t9", "seq": 9}])
    async with database.transaction(write=False) as connection:
        session = TenantSession(connection, "ws_a")
        direct = [await session.fetch_all(KEPT_THINGS) for _ in range(2)]
        monkeypatch.setattr(driver, "DIRECT", False)
        assert direct[0] == direct[1] == await session.fetch_all(KEPT_THINGS)
    with pytest.raises(exc.IntegrityError):  # the driver's error as SQLAlchemy's
        monkeypatch.setattr(driver, "DIRECT", True)
        async with database.transaction() as connection:
            await TenantSession(connection, "ws_a").insert(things, row)


async def _notes(database: Database) -> int:
    async with database.transaction(write=False) as connection:
        return (await connection.execute(select(func.count()).select_from(notes))).scalar_one()


async def test_rows_of_several_tables_go_in_one_statement_all_or_none(database, monkeypatch):
    """insert_together: on PostgreSQL one statement (the first table's INSERT, the others'
    as CTEs: one driver call), on SQLite one INSERT a table; a row that breaks a
    constraint, in either table, fails the whole and the block writes nothing."""
    calls: list[str] = []
    for name in ("execute", "executemany", "fetch"):
        original = getattr(asyncpg.Connection, name)

        def counted(self, sql, *args, _original=original, **kwargs):
            calls.append(sql)
            return _original(self, sql, *args, **kwargs)

        monkeypatch.setattr(asyncpg.Connection, name, counted)
    for n in range(3):  # the first run through SQLAlchemy, the others on the driver
        calls.clear()
        async with database.transaction() as connection:
            thing = {"id": f"t{n}", "seq": n}
            two = [{"id": f"n{n}a", "thing_id": f"t{n}"}, {"id": f"n{n}b", "thing_id": f"t{n}"}]
            await TenantSession(connection, "ws_a").insert_together(
                [(things, [thing]), (notes, two)]
            )
            inserted = [sql for sql in calls if "INSERT" in sql]
    assert (await _count(database), await _notes(database)) == (3, 6)
    if database.is_sqlite:
        assert inserted == []  # (sqlite3, not asyncpg)
    else:
        assert len(inserted) == 1 and inserted[0].startswith("WITH"), inserted
    clashes = {  # a note's id taken (the CTE's table), a thing's id taken (the INSERT's)
        "note": ({"id": "t9", "seq": 9}, {"id": "n0a", "thing_id": "t9"}),
        "thing": ({"id": "t0", "seq": 9}, {"id": "n9", "thing_id": "t0"}),
    }
    for thing, note in clashes.values():
        with pytest.raises(exc.IntegrityError):
            async with database.transaction() as connection:
                await TenantSession(connection, "ws_a").insert_together(
                    [(things, [thing]), (notes, [{"id": "n8", "thing_id": "t9"}, note])]
                )
    assert (await _count(database), await _notes(database)) == (3, 6)


async def test_a_postgres_write_is_asyncpgs_transaction_around_every_statement(monkeypatch):
    """A PostgreSQL write block begins asyncpg's transaction before its first statement
    (so that statement runs on the driver too); statements run through SQLAlchemy (its
    engine in AUTOCOMMIT) are inside it and roll back with it. A ROLLBACK that fails
    invalidates the connection, and the block's own error is the one raised."""
    async with own_postgres_database("homebase_tx", pool_size=1) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
        async with database.transaction(write=False) as connection:  # KEPT_THINGS seen once
            await TenantSession(connection, "ws_a").fetch_all(KEPT_THINGS)
        executed: list[str] = []
        event.listen(
            database.engine.sync_engine, "before_cursor_execute", lambda *a: executed.append(a[2])
        )
        with pytest.raises(LookupError):
            async with database.transaction() as connection:
                session = TenantSession(connection, "ws_a")
                assert await _driver_in_transaction(connection)  # begun before any statement
                assert await session.fetch_all(KEPT_THINGS) == []  # on the driver
                assert executed == []
                await connection.execute(
                    things.insert(), {"workspace_id": "ws_a", "id": "t1", "seq": 1}
                )
                assert len(executed) == 1 and await _count(database) == 0  # not committed
                raise LookupError
        assert await _count(database) == 0  # the SQLAlchemy statement rolled back with it

        async def failing_rollback(self):
            raise asyncpg.InterfaceError("the connection broke during ROLLBACK")

        monkeypatch.setattr(asyncpg.transaction.Transaction, "rollback", failing_rollback)
        with pytest.raises(LookupError):
            async with database.transaction() as connection:
                raw = (await connection.get_raw_connection()).driver_connection
                await TenantSession(connection, "ws_a").insert(things, {"id": "t2", "seq": 2})
                raise LookupError
        assert raw.is_closed() and database._idle[True] == []  # invalidated, not kept
        monkeypatch.undo()
        async with database.transaction() as connection:  # a new connection, no transaction left
            await TenantSession(connection, "ws_a").insert(things, {"id": "t3", "seq": 3})
        assert await _count(database) == 1
