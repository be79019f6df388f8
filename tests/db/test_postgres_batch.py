"""A PostgreSQL write request's writes that nobody waits for (db/batch.py): sent together
as one statement, with the next write that must run now or with the request's end; a
read, or a write to a table the batch wrote, sees them; their errors fail the request
and leave nothing; a write that ends in one statement sends no BEGIN or COMMIT."""

import asyncio

import pytest
from sqlalchemy import (
    Column,
    ForeignKey,
    Identity,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    exc,
    insert,
    select,
    text,
)

from homebase.db import batch, tenancy
from homebase.db.postgres import PgDriver
from homebase.db.tenancy import TenantSession, tenant_select, tenant_update
from tests.support import own_postgres_database

metadata = MetaData()
parents = Table(
    "batch_parents",
    metadata,
    Column("id", String, primary_key=True),
    Column("workspace_id", String, nullable=False),
    Column("name", String),
    Column("turn", Integer, nullable=False, default=0),
)
children = Table(
    "batch_children",
    metadata,
    Column("id", String, primary_key=True),
    Column("workspace_id", String, nullable=False),
    Column("parent_id", String, ForeignKey("batch_parents.id"), nullable=False),
    Column("note", String),
)
ordered = Table(
    "batch_ordered",
    metadata,
    Column("id", Integer, Identity(), primary_key=True),  # the order rows were written
    Column("workspace_id", String, nullable=False),
    Column("note", String),
)
WORKSPACE = "wrk_batch"
TAKE_TURN = (
    tenant_update(parents)
    .where(parents.c.id == bindparam("parent"))
    .values(turn=parents.c.turn + 1)
    .returning(parents.c.turn)
)
PARENT = tenant_select(parents).where(parents.c.id == bindparam("parent"))
RENAME = (
    tenant_update(parents)
    .where(parents.c.id == bindparam("parent"))
    .values(name=bindparam("new_name"))
)
RENAME_ALL = tenant_update(parents).values(name=bindparam("new_name"))
ADD_TURNS = (
    tenant_update(parents)
    .where(parents.c.id == bindparam("parent"))
    .values(turn=parents.c.turn + bindparam("turns"))
)


@pytest.fixture
async def database():
    async with own_postgres_database("homebase_batch", pool_size=2) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
            await connection.execute(
                insert(parents),
                [{"id": "p0", "workspace_id": WORKSPACE, "name": "zero", "turn": 0}],
            )
        yield database


class Statements:
    """What the request's connection sent, by asyncpg's public query logger: each
    statement's first word (`sent`) and its text (`queries`)."""

    def __init__(self, connection):
        self.driver = connection.homebase_driver
        assert isinstance(self.driver, PgDriver)
        self.sent: list[str] = []
        self.queries: list[str] = []
        self.driver.asyncpg.add_query_logger(self._log)

    def _log(self, record) -> None:
        self.sent.append(record.query.split(None, 1)[0].upper())
        self.queries.append(record.query)

    async def stop(self) -> None:
        for _ in range(3):  # asyncpg calls its query loggers soon after, not at once
            await asyncio.sleep(0)
        self.driver.asyncpg.remove_query_logger(self._log)


async def _stored(database, table):
    async with database.transaction(write=False) as connection:
        rows = (await connection.execute(select(table).order_by(table.c.id))).mappings().all()
    return [dict(row) for row in rows]


def _session(connection) -> TenantSession:
    return TenantSession(connection, WORKSPACE)


async def test_writes_nobody_reads_end_as_one_statement_without_begin(database):
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        await session.execute_later(RENAME, {"parent": "p0", "new_name": "renamed"})
        await session.insert(parents, {"id": "p1", "name": "one", "turn": 0})
        await session.insert_many(
            children,
            [{"id": f"c{n}", "parent_id": "p1", "note": f"n{n}"} for n in range(3)],
        )
        assert statements.sent == [], "deferred writes went out before the request's end"
    await statements.stop()
    assert statements.sent == ["WITH"]
    assert [row["name"] for row in await _stored(database, parents)] == ["renamed", "one"]
    # An UPDATE of a table the batch wrote would not have seen its rows: not kept.
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        await session.insert(parents, {"id": "p2", "name": "two", "turn": 0})
        await session.execute_later(RENAME_ALL, {"new_name": "all"})
    await statements.stop()
    assert statements.sent == ["BEGIN", "INSERT", "UPDATE", "COMMIT"]
    assert {row["name"] for row in await _stored(database, parents)} == {"all"}
    assert [(row["id"], row["note"]) for row in await _stored(database, children)] == [
        ("c0", "n0"),
        ("c1", "n1"),
        ("c2", "n2"),
    ]


async def test_a_read_sees_the_writes_before_it(database):
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        await session.insert(parents, {"id": "p1", "name": "one", "turn": 0})
        found = await session.fetch_one(PARENT, {"parent": "p1"})
        assert found is not None and found["name"] == "one"
        # Through SQLAlchemy too.
        await session.insert(parents, {"id": "p2", "name": "two", "turn": 0})
        names = (await connection.execute(select(parents.c.name))).scalars().all()
        assert sorted(names) == ["one", "two", "zero"]
    await statements.stop()
    # (asyncpg logs no query of a prepared statement, which SQLAlchemy's adapter runs.)
    assert statements.sent[:4] == ["BEGIN", "INSERT", "SELECT", "INSERT"]
    assert statements.sent[-1] == "COMMIT"


async def test_an_update_of_a_table_the_batch_wrote_sees_its_rows(database):
    """Clauses of one statement all see the database as it was before it: an UPDATE of
    a row the batch inserted is sent after the batch, not beside it."""
    async with database.request_transaction(write=True) as connection:
        session = _session(connection)
        await session.insert(parents, {"id": "p1", "name": "one", "turn": 0})
        await session.execute_later(RENAME, {"parent": "p1", "new_name": "updated"})
        await session.execute_later(ADD_TURNS, {"parent": "p1", "turns": 5})
    stored = {row["id"]: row for row in await _stored(database, parents)}
    assert (stored["p1"]["name"], stored["p1"]["turn"]) == ("updated", 5)


async def test_a_write_that_must_run_now_carries_the_batch(database):
    """An UPDATE ... RETURNING of another table takes the batch in front of it (one
    round trip), and its own rows and count are what it returns alone."""
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        await session.insert(children, {"id": "c1", "parent_id": "p0", "note": "before"})
        turn = await session.fetch_one(TAKE_TURN, {"parent": "p0"})
        assert turn == {"turn": 1}
        await session.insert(children, {"id": "c2", "parent_id": "p0", "note": "after"})
    await statements.stop()
    assert statements.sent == ["BEGIN", "WITH", "INSERT", "COMMIT"]
    assert [row["id"] for row in await _stored(database, children)] == ["c1", "c2"]
    assert (await _stored(database, parents))[0]["turn"] == 1


async def test_a_parent_and_its_child_in_one_statement(database):
    """Foreign keys are checked when the statement ends, after every clause."""
    async with database.request_transaction(write=True) as connection:
        session = _session(connection)
        await session.insert(parents, {"id": "p1", "name": "one", "turn": 0})
        await session.insert(children, {"id": "c1", "parent_id": "p1"})
    assert [row["parent_id"] for row in await _stored(database, children)] == ["p1"]


async def test_an_error_in_the_batch_fails_the_request_and_leaves_nothing(database):
    # One statement, no transaction: the first clause's row goes with the failing one.
    with pytest.raises(exc.IntegrityError):
        async with database.request_transaction(write=True) as connection:
            session = _session(connection)
            await session.insert(parents, {"id": "p1", "name": "one", "turn": 0})
            await session.insert(parents, {"id": "p0", "name": "duplicate", "turn": 0})
    assert [row["id"] for row in await _stored(database, parents)] == ["p0"]
    # Inside a transaction: what ran before it is rolled back too.
    with pytest.raises(exc.IntegrityError):
        async with database.request_transaction(write=True) as connection:
            session = _session(connection)
            await session.fetch_one(TAKE_TURN, {"parent": "p0"})
            await session.insert(children, {"id": "c1", "parent_id": "missing"})
    assert (await _stored(database, parents))[0]["turn"] == 0
    assert await _stored(database, children) == []
    # The pool's connection that saw the error is replaced; the next request works.
    async with database.request_transaction(write=True) as connection:
        await _session(connection).insert(parents, {"id": "p1", "name": "one", "turn": 0})
    assert [row["id"] for row in await _stored(database, parents)] == ["p0", "p1"]


async def test_a_request_that_raises_sends_nothing_it_deferred(database):
    with pytest.raises(RuntimeError, match="undo"):
        async with database.request_transaction(write=True) as connection:
            statements, session = Statements(connection), _session(connection)
            await session.insert(parents, {"id": "p1", "name": "one", "turn": 0})
            raise RuntimeError("undo")
    await statements.stop()
    assert statements.sent == []
    assert [row["id"] for row in await _stored(database, parents)] == ["p0"]


async def test_rows_are_written_in_the_order_the_code_asked(database):
    """PostgreSQL runs a statement's WITH clauses last first; the batch writes them in
    reverse, so a row lock is taken where the code asked for it (db/batch.py)."""
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        for n in range(4):
            await session.insert(ordered, {"note": f"n{n}"})
    await statements.stop()
    assert statements.sent == ["WITH"]
    assert [row["note"] for row in await _stored(database, ordered)] == [
        "n0",
        "n1",
        "n2",
        "n3",
    ]


async def test_updates_of_disjoint_rows_of_one_table_may_share_the_statement(database):
    async with database.request_transaction(write=True) as connection:
        await _session(connection).insert(parents, {"id": "p1", "name": "one", "turn": 0})
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        await session.execute_later(RENAME, {"parent": "p0", "new_name": "a"})
        await session.execute_later(RENAME, {"parent": "p1", "new_name": "b"}, disjoint=True)
    await statements.stop()
    assert statements.sent == ["WITH"]
    assert [row["name"] for row in await _stored(database, parents)] == ["a", "b"]
    # Without the caller's word, the second waits for the first to be sent.
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        await session.execute_later(RENAME, {"parent": "p0", "new_name": "c"})
        await session.execute_later(RENAME, {"parent": "p1", "new_name": "d"})
    await statements.stop()
    assert statements.sent == ["BEGIN", "UPDATE", "UPDATE", "COMMIT"]
    assert [row["name"] for row in await _stored(database, parents)] == ["c", "d"]


def test_placeholders_are_renumbered_in_order():
    first = batch.Write("INSERT INTO a (x, y) VALUES ($1::VARCHAR, $2)", ["x", 1], "a", False)
    second = batch.Write("UPDATE b SET z=$1 WHERE b.id = $2", [3, "b1"], "b", True)
    sql, arguments = batch.combine([first, second], "INSERT INTO c (v) VALUES ($1)", ["c"])
    # Written last first: PostgreSQL runs them first to last (db/batch.py).
    assert sql == (
        "WITH w0 AS (UPDATE b SET z=$1 WHERE b.id = $2), "
        "w1 AS (INSERT INTO a (x, y) VALUES ($3::VARCHAR, $4)) "
        "INSERT INTO c (v) VALUES ($5)"
    )
    assert arguments == [3, "b1", "x", 1, "c"]
    assert batch.insert_rows("INSERT INTO a (x, y) VALUES ($1, $2::JSONB)", 2, 3) == (
        "INSERT INTO a (x, y) VALUES ($1, $2::JSONB), ($3, $4::JSONB), ($5, $6::JSONB)"
    )


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO a (x) VALUES ('$1')",
        "SELECT $$text$$",
        "WITH q AS (SELECT 1) INSERT INTO a (x) SELECT * FROM q",
    ],
)
def test_statements_that_text_cannot_nest_are_not_combined(sql):
    assert not batch.combinable(sql)


def test_a_batch_stays_under_the_parameter_limit():
    kept = batch.Batch()
    kept.add(batch.Write("INSERT INTO a (x) VALUES ($1)", [0] * 29_999, "a", False))
    assert not kept.accepts(batch.Write("INSERT INTO a (x) VALUES ($1)", [0, 0], "a", False))
    assert kept.accepts(batch.Write("INSERT INTO a (x) VALUES ($1)", [0], "a", False))
    assert not kept.accepts(batch.Write("UPDATE a SET x=$1", [0], "a", True))
    assert kept.independent_of("b", 1) and not kept.independent_of("a", 1)


async def test_switching_the_direct_path_off_sends_every_write_through_sqlalchemy():
    async with own_postgres_database(
        "homebase_batch", pool_size=2, postgres_direct=False
    ) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
        async with database.request_transaction(write=True) as connection:
            statements, session = Statements(connection), _session(connection)
            await session.insert(parents, {"id": "p1", "name": "one", "turn": 0})
            assert not connection.homebase_driver.batch
        await statements.stop()
        assert "WITH" not in statements.sent and "BEGIN" in statements.sent
        assert [row["id"] for row in await _stored(database, parents)] == ["p1"]
        async with database.request_transaction(write=True) as connection:
            await connection.execute(text("SELECT 1"))


async def _turn_elsewhere(database) -> int:
    """A turn taken on another connection, which waits at most 1 s for a row lock."""
    async with database.transaction() as connection:
        await connection.execute(text("SET LOCAL lock_timeout = '1s'"))
        result = await connection.execute(
            text("UPDATE batch_parents SET turn = turn + 1 WHERE id = 'p0' RETURNING turn")
        )
        return result.scalar_one()


async def test_a_turn_taken_first_commits_at_once_and_holds_no_lock(database):
    """TenantSession.fetch_one_committed (routing's round-robin turn): on a request that
    has written nothing it commits on its own, so another taker does not wait for the
    request to end; the turn stays taken when the request then fails."""
    with pytest.raises(RuntimeError, match="undo"):
        async with database.request_transaction(write=True) as connection:
            session = _session(connection)
            assert await session.fetch_one_committed(TAKE_TURN, {"parent": "p0"}) == {"turn": 1}
            assert not connection.homebase_driver.asyncpg.is_in_transaction()
            assert await _turn_elsewhere(database) == 2  # no wait for this request's end
            await session.insert(children, {"id": "c1", "parent_id": "p0"})
            raise RuntimeError("undo")
    assert (await _stored(database, parents))[0]["turn"] == 2
    assert await _stored(database, children) == []


async def _commit_mode(connection) -> str:
    return await connection.homebase_driver.asyncpg.fetchval("SHOW synchronous_commit")


async def test_a_turn_taken_alone_does_not_wait_for_its_flush(database):
    """Its own transaction commits without waiting for the WAL flush (the request's own
    synchronous commit, later, flushes it); the request's transaction keeps the
    server's setting."""
    async with database.request_transaction(write=True) as connection:
        statements, session = Statements(connection), _session(connection)
        assert await session.fetch_one_committed(TAKE_TURN, {"parent": "p0"}) == {"turn": 1}
        await session.insert(children, {"id": "c1", "parent_id": "p0"})
        assert await _commit_mode(connection) == "on"  # in the request's transaction
    await statements.stop()
    turn, *rest = statements.queries
    assert "set_config('synchronous_commit', 'off'" in turn and "async_commit" in turn
    assert any(query.startswith("INSERT") for query in rest)
    assert not any("synchronous_commit', 'off'" in query for query in rest)
    async with database.transaction() as connection:
        await connection.execute(select(tenancy._ASYNC_COMMIT))
        assert (await connection.execute(text("SHOW synchronous_commit"))).scalar() == "off"
    async with database.transaction() as connection:  # SET LOCAL: that transaction's only
        assert (await connection.execute(text("SHOW synchronous_commit"))).scalar() == "on"


async def test_a_turn_taken_after_a_write_is_part_of_the_transaction(database):
    with pytest.raises(RuntimeError, match="undo"):
        async with database.request_transaction(write=True) as connection:
            session = _session(connection)
            await session.fetch_one(TAKE_TURN, {"parent": "p0"})  # writes: BEGIN
            statements = Statements(connection)
            assert await session.fetch_one_committed(TAKE_TURN, {"parent": "p0"}) == {"turn": 2}
            await statements.stop()
            assert "async_commit" not in statements.queries[0]  # the request's commit
            assert await _commit_mode(connection) == "on"
            with pytest.raises(exc.DBAPIError, match="lock timeout"):
                await _turn_elsewhere(database)
            raise RuntimeError("undo")
    assert (await _stored(database, parents))[0]["turn"] == 0
