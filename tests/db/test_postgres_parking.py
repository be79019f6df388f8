"""PostgreSQL read requests keep half the pool and hand connections from one request to
the next (db/request.py, ReservedParking): under more requests than connections none
goes back through SQLAlchemy's pool, transactions never wait for them, a waiter gets
503 after the pool timeout, and a slot whose connection is lost or cancelled passes on."""

import asyncio

import pytest
from sqlalchemy import event, exc, func, select, text

from homebase.db import direct
from homebase.db.engine import Database
from homebase.db.request import ReservedParking
from homebase.db.unavailable import DatabaseUnavailable
from tests.support import own_postgres_database

BACKEND = direct.once(select(func.pg_backend_pid().label("pid")))
SUICIDE = direct.once(select(func.pg_terminate_backend(func.pg_backend_pid()).label("gone")))


@pytest.fixture
async def database():
    async with own_postgres_database("homebase_pgpark", pool_size=2, pool_timeout=0.5) as database:
        yield database


def _count_checkouts(database: Database) -> list[int]:
    """How many times a connection left SQLAlchemy's pool (its public pool event)."""
    checkouts = [0]

    def counted(*_args) -> None:
        checkouts[0] += 1

    event.listen(database.engine.sync_engine, "checkout", counted)
    return checkouts


async def _until(condition, pause: float = 0.01) -> None:
    """Wait (bounded: 5 s) until `condition()` holds."""
    for _ in range(int(5 / max(pause, 0.001))):
        if condition():
            return
        await asyncio.sleep(pause)
    raise AssertionError("the condition never held")


async def _direct_read(database: Database, hold: float = 0.0) -> int:
    """A read request's statement, straight on asyncpg (as the API-key lookup runs)."""
    async with database.request_transaction(write=False) as connection:
        outcome = await direct.execute(connection, BACKEND)
        assert outcome is not None
        await asyncio.sleep(hold)
        return outcome.rows[0]["pid"]


async def test_more_requests_than_connections_reuse_the_reserve_without_the_pool(database):
    parking = database.parking
    assert isinstance(parking, ReservedParking) and parking.limit == 2
    checkouts = _count_checkouts(database)
    await asyncio.gather(*(_direct_read(database, hold=0.01) for _ in range(40)))
    # Two connections for forty requests: each was handed from one request to the next.
    assert checkouts[0] == 2
    assert parking.held == 2 and len(parking.idle) == 2 and not parking.queue
    assert database.engine.pool.checkedout() == 2


async def test_a_transaction_neither_takes_nor_waits_for_read_connections(database):
    await asyncio.gather(*(_direct_read(database) for _ in range(2)))
    parked = list(database.parking.idle)
    assert len(parked) == 2
    holding = asyncio.Event()
    done = asyncio.Event()

    async def hold_both_reads() -> None:
        async with (
            database.request_transaction(write=False),
            database.request_transaction(write=False),
        ):
            holding.set()
            await done.wait()

    readers = asyncio.create_task(hold_both_reads())
    await holding.wait()
    # The reserve is in use; a transaction still gets the pool's other half at once.
    async with asyncio.timeout(5):
        async with database.transaction() as connection:
            assert (await connection.execute(text("SELECT 1"))).scalar_one() == 1
    done.set()
    await readers
    assert database.parking.idle == parked  # nothing was released for the transaction


async def test_a_request_waiting_past_the_pool_timeout_is_unavailable(database):
    release = asyncio.Event()

    async def hold() -> None:
        async with database.request_transaction(write=False):
            await release.wait()

    holders = [asyncio.create_task(hold()) for _ in range(2)]
    await _until(lambda: database.parking.held == 2 and not database.parking.idle)
    with pytest.raises(DatabaseUnavailable) as caught:
        await _direct_read(database)
    assert "No database connection became free in time" in caught.value.message
    assert not [future for future in database.parking.queue if not future.done()]
    release.set()
    await asyncio.gather(*holders)
    assert await _direct_read(database)  # the reserve is whole again
    assert database.parking.held == 2


async def test_a_lost_connections_slot_passes_to_a_waiter(database):
    """A request whose connection dies (invalidated, back to the pool) hands its slot to
    the next waiter, who checks a new connection out for it."""
    resume, finish = asyncio.Event(), asyncio.Event()
    lost_pid: list[int] = []

    async def dies() -> None:
        with pytest.raises(exc.DBAPIError):
            async with database.request_transaction(write=False) as connection:
                lost_pid.append((await direct.execute(connection, BACKEND)).rows[0]["pid"])
                await resume.wait()
                await direct.execute(connection, SUICIDE)

    async def holds() -> None:
        async with database.request_transaction(write=False):
            await finish.wait()

    dying, holding = asyncio.create_task(dies()), asyncio.create_task(holds())
    await _until(lambda: database.parking.held == 2 and lost_pid)
    waiting = asyncio.create_task(_direct_read(database))
    await _until(lambda: database.parking.queue)
    resume.set()
    await dying
    # The waiter got the dead connection's slot and a new connection for it.
    assert await asyncio.wait_for(waiting, 5) != lost_pid[0]
    finish.set()
    await holding
    assert database.parking.held == 2 and len(database.parking.idle) == 2
    assert database.engine.pool.checkedout() == 2


async def test_a_waiter_cancelled_as_a_connection_reaches_it_passes_it_on(database):
    parking = database.parking
    await asyncio.gather(*(_direct_read(database) for _ in range(2)))
    one = parking.take()
    two = parking.take()
    assert one is not None and two is not None
    # Both slots are in use; two requests wait.
    first = asyncio.create_task(parking.checkout(database.engine))
    second = asyncio.create_task(parking.checkout(database.engine))
    await _until(lambda: len(parking.queue) == 2, pause=0)
    parking.put(one)  # handed to the first waiter...
    first.cancel()  # ...which is cancelled before it runs again
    with pytest.raises(asyncio.CancelledError):
        await first
    assert await asyncio.wait_for(second, 5) is one  # passed on, not leaked
    parking.put(one)
    parking.put(two)
    assert parking.held == 2 and len(parking.idle) == 2
