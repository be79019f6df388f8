"""db/request.py Parking: a request's SQLite connection stays checked out between
requests, and is never kept while anything else waits for the pool (pool of one)."""

import asyncio

import pytest
from sqlalchemy import literal, select, text

from homebase.db import direct
from homebase.db.engine import Database

# Built once and marked, as TenantSession's templates are, so it runs on the driver.
ONE = direct.once(select(literal(1).label("one")))


@pytest.fixture
async def database(tmp_path):
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'parking.sqlite3'}", sqlite_pool_size=1)
    yield database
    await database.dispose()


async def _request(database: Database, hold: asyncio.Event | None = None) -> None:
    async with database.request_transaction(write=False) as connection:
        # on the driver directly, as TenantSession's statements run (db/direct.py)
        outcome = await direct.execute(connection, ONE)
        assert outcome is not None and outcome.rows == [{"one": 1}]
        if hold is not None:
            await hold.wait()


async def test_a_request_parks_its_connection_and_the_next_reuses_it(database):
    await _request(database)
    assert len(database.parking.idle) == 1
    parked = database.parking.idle[0]
    await _request(database)
    assert database.parking.idle == [parked]
    assert database.engine.pool.checkedout() == 1  # held by the parking, not returned


async def test_a_transaction_takes_the_parked_connection_back(database):
    await _request(database)
    async with asyncio.timeout(5):  # pool of one: would wait 60 s if still parked
        async with database.transaction() as connection:
            assert (await connection.execute(text("SELECT 1"))).scalar() == 1
    assert database.parking.idle == []
    assert database.engine.pool.checkedout() == 0


async def test_nothing_is_parked_while_a_transaction_waits(database):
    hold = asyncio.Event()
    request = asyncio.create_task(_request(database, hold))
    await asyncio.sleep(0.05)  # the request holds the only connection

    async def transaction() -> int:
        async with database.transaction() as connection:
            return (await connection.execute(text("SELECT 2"))).scalar()

    waiting = asyncio.create_task(transaction())
    await asyncio.sleep(0.05)
    assert database.parking.waiting == 1
    hold.set()
    async with asyncio.timeout(5):
        assert await waiting == 2
        await request
    assert database.parking.idle == []


async def test_concurrent_requests_all_finish_on_a_pool_of_one(database):
    async with asyncio.timeout(10):
        await asyncio.gather(*(_request(database) for _ in range(50)))
    assert len(database.parking.idle) == 1 and database.parking.waiting == 0


async def test_an_invalidated_connection_is_not_parked(database):
    await _request(database)
    database.parking.idle[0].invalidate()
    database.parking.put(database.parking.take())
    assert database.parking.idle == []
