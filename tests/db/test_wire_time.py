"""PostgreSQL writes a timestamp as the wire's text (db/types.wire_time) exactly as
kit.clock.isoformat formats the datetime: UTC, milliseconds truncated, a Z suffix; SQLite
hands over the stored text, which stored_time_to_wire turns into the same."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, insert, select

from homebase.db.engine import Database
from homebase.db.types import UTCDateTime, stored_time_to_wire, wire_time
from homebase.kit.clock import isoformat
from tests.support import own_postgres_database

metadata = MetaData()
moments = Table(
    "wire_moments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", UTCDateTime),
)

CASES = [
    datetime(2026, 1, 5, 15, 0, 0, 123456, tzinfo=UTC),
    datetime(2026, 1, 5, 15, 0, 0, tzinfo=UTC),
    datetime(2026, 1, 5, 15, 0, 0, 999, tzinfo=UTC),
    datetime(2026, 1, 5, 15, 0, 0, 1000, tzinfo=UTC),
    datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),  # no rounding up
    datetime(2028, 2, 29, 0, 0, 0, 500000, tzinfo=UTC),
    datetime(2026, 7, 1, 1, 30, 0, 250000, tzinfo=timezone(timedelta(hours=5, minutes=30))),
    datetime(2026, 3, 29, 1, 30, tzinfo=timezone(timedelta(hours=-8))),
    None,
]


async def test_postgres_writes_the_wire_text_of_every_timestamp():
    async with own_postgres_database("homebase_wire_time", pool_size=1) as database:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
            await connection.execute(
                insert(moments), [{"id": index, "at": at} for index, at in enumerate(CASES)]
            )
            # A session whose zone is not UTC: the text is UTC's all the same.
            await connection.exec_driver_sql("SET LOCAL TIME ZONE 'America/New_York'")
            rows = await connection.execute(
                select(moments.c.id, wire_time(moments.c.at, "postgresql")).order_by(moments.c.id)
            )
            written = {row.id: row.at for row in rows}
    assert written == {index: isoformat(at) for index, at in enumerate(CASES)}
    assert written[4] == "1999-12-31T23:59:59.999Z"
    assert written[6] == "2026-06-30T20:00:00.250Z"


async def test_elsewhere_the_column_is_read_as_stored(tmp_path):
    """SQLite: the column's text as stored, which stored_time_to_wire slices into the
    same wire text."""
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'wire.sqlite3'}")
    try:
        async with database.transaction() as connection:
            await connection.run_sync(metadata.create_all)
            await connection.execute(
                insert(moments), [{"id": index, "at": at} for index, at in enumerate(CASES)]
            )
            statement = select(moments.c.id, wire_time(moments.c.at, "sqlite"))
            rows = (await connection.execute(statement.order_by(moments.c.id))).all()
    finally:
        await database.dispose()
    assert [stored_time_to_wire(row.at) for row in rows] == [isoformat(at) for at in CASES]
    assert all(isinstance(row.at, str) for row in rows if row.at is not None)


def test_sqlite_binds_the_text_sqlalchemys_datetime_writes():
    """On SQLite, UTCDateTime binds in one function: the text SQLAlchemy's DATETIME writes
    for the same moment in UTC, which the rows already stored hold and queries compare."""
    from sqlalchemy.dialects import sqlite
    from sqlalchemy.dialects.sqlite import DATETIME

    dialect = sqlite.dialect()
    ours = UTCDateTime().bind_processor(dialect)
    theirs = DATETIME().bind_processor(dialect)
    assert ours is not None and theirs is not None
    for at in CASES:
        naive = None if at is None else at.astimezone(UTC).replace(tzinfo=None)
        assert ours(at) == theirs(naive)
    with pytest.raises(ValueError, match="naive datetime"):
        ours(datetime(2026, 1, 5, 15, 0))
