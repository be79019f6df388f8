"""No request stalls the others on SQLite: statements that can be slow
run on their connection's thread (db/sqlite.py, off_loop), and read transactions run side
by side on the pool's connections (WAL) while writes still go one at a time."""

import asyncio
import threading
import time

import pytest
from sqlalchemy import event, func, literal, select, text

from homebase.db.engine import Database
from homebase.db.sqlite import off_loop
from homebase.http.lists import filtered

ONE = select(literal(1).label("one"))
THREAD = select(func.thread_ident().label("ident"))


@pytest.fixture
async def database(tmp_path):
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'stall.sqlite3'}")

    def _functions(dbapi_connection, _record):
        # Which thread runs a statement, and a statement that takes a while.
        dbapi_connection.create_function("thread_ident", 0, threading.get_ident)
        dbapi_connection.create_function("slow", 1, lambda seconds: time.sleep(seconds) or 1)

    for engine in database.engines:  # the writer's and the reader's
        event.listen(engine.sync_engine, "connect", _functions)

    yield database
    await database.dispose()


async def _thread_of_statement(database: Database, slow: bool) -> int:
    async with database.transaction(write=False) as connection:
        with off_loop(slow):
            return (await connection.execute(THREAD)).scalar_one()


async def test_a_slow_statement_runs_off_the_loop_thread(database):
    loop_thread = threading.get_ident()
    assert await _thread_of_statement(database, False) == loop_thread
    assert await _thread_of_statement(database, True) != loop_thread
    # and the next cheap one is inline again
    assert await _thread_of_statement(database, False) == loop_thread


async def test_a_read_proceeds_while_another_read_runs_a_slow_statement(database):
    async def slow_read() -> int:
        async with database.transaction(write=False) as connection:
            with off_loop():
                return (await connection.execute(text("SELECT slow(0.5)"))).scalar()

    slow = asyncio.create_task(slow_read())
    await asyncio.sleep(0.05)  # the slow statement is running on its connection's thread
    async with asyncio.timeout(5):
        async with database.transaction(write=False) as connection:
            one = (await connection.execute(ONE)).scalar_one()
    assert one == 1
    assert not slow.done()  # answered on another connection while the slow one ran
    assert await slow == 1


async def test_two_read_transactions_are_open_at_once(database):
    async with database.transaction() as connection:
        await connection.execute(text("CREATE TABLE t (x INTEGER)"))
        await connection.execute(text("INSERT INTO t VALUES (1)"))
    first_open, release = asyncio.Event(), asyncio.Event()

    async def hold_a_read() -> None:
        async with database.transaction(write=False) as connection:
            assert (await connection.execute(text("SELECT x FROM t"))).scalar() == 1
            first_open.set()
            await release.wait()

    holder = asyncio.create_task(hold_a_read())
    await first_open.wait()
    async with asyncio.timeout(5):  # a pool of one would keep this waiting 60 s
        async with database.transaction(write=False) as connection:
            assert (await connection.execute(text("SELECT x FROM t"))).scalar() == 1
    release.set()
    await holder


async def test_writes_still_go_one_at_a_time(database):
    async with database.transaction() as connection:
        await connection.execute(text("CREATE TABLE t (x INTEGER)"))
    order: list[str] = []
    first_open, release = asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with database.transaction() as connection:
            await connection.execute(text("INSERT INTO t VALUES (1)"))
            order.append("first in")
            first_open.set()
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with database.transaction() as connection:
            order.append("second in")
            await connection.execute(text("INSERT INTO t VALUES (2)"))

    one = asyncio.create_task(first())
    await first_open.wait()
    two = asyncio.create_task(second())
    await asyncio.sleep(0.05)
    assert order == ["first in"]  # the second writer waits its turn, in this process
    release.set()
    await asyncio.gather(one, two)
    assert order == ["first in", "first out", "second in"]


def test_a_list_with_a_filter_or_a_search_counts_as_filtered():
    assert filtered({"q": "zqxw", "stage": None})
    assert filtered({"tag": ["vip"]})
    assert not filtered({"q": None, "stage": None, "tag": []})


async def test_a_call_on_the_thread_runs_to_the_end_in_order_even_if_its_caller_is_cancelled(
    database,
):
    """Driver.on_thread: a queued call always runs, and the calls after it never
    overtake it; an error raised there reaches its caller."""
    async with database.transaction(write=False) as connection:
        driver = (await connection.get_raw_connection()).driver_connection
        ran: list[str] = []

        def slow() -> None:
            time.sleep(0.2)
            ran.append("slow")

        caller = asyncio.create_task(driver.on_thread(slow, ()))
        await asyncio.sleep(0.05)  # running on the connection's thread
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        # Inline calls wait while anything is queued: this one runs after `slow`.
        await driver.call(ran.append, "next")
        assert ran == ["slow", "next"]
        assert driver.queued == driver.finished

        def fails() -> None:
            raise ValueError("from the thread")

        with off_loop(), pytest.raises(ValueError, match="from the thread"):
            await driver.call(fails)
        with off_loop():
            assert await driver.call(threading.get_ident) != threading.get_ident()
