"""TenantSession.without_bitmap_scans: on PostgreSQL the block's statements are planned
without bitmap scans (so no GIN index answers them: the import's lookups,
imports/rows.py), in that block of the write transaction only; SQLite runs it as is."""

import pytest
from sqlalchemy import func, select

from homebase.db.tenancy import ReadOnly, TenantSession

SETTING = select(func.current_setting("enable_bitmapscan"))


async def test_the_block_runs_without_bitmap_scans_and_the_setting_comes_back(runtime, tenant):
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        async with session.without_bitmap_scans():
            inside = None if runtime.db.is_sqlite else (await connection.execute(SETTING)).scalar()
        after = None if runtime.db.is_sqlite else (await connection.execute(SETTING)).scalar()
    if not runtime.db.is_sqlite:
        assert (inside, after) == ("off", "on")


async def test_a_read_may_not_change_the_planner(runtime, tenant):
    if runtime.db.is_sqlite:
        pytest.skip("a PostgreSQL setting")
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        with pytest.raises(ReadOnly):
            async with session.without_bitmap_scans():
                pass
