"""A contacts batch on PostgreSQL is planned without bitmap scans (imports/jobs.py,
NO_BITMAP_SCANS), for its own transaction only: its match lookups are answered by the
(workspace_id, column) btrees, never by the search's trigram GIN indexes, which answer `=`
too and which the planner took for a batch's known values (docs/performance.md, "Bulk
imports")."""

import pytest
from sqlalchemy import func, select

from homebase.imports import jobs
from homebase.imports.rows import _LOOKUPS
from homebase.imports.schemas import ImportMatchKey

SETTING = select(func.current_setting("enable_bitmapscan"))
BTREES = {
    ImportMatchKey.EMAIL: "ix_contacts_workspace_id_email_lower",
    ImportMatchKey.PHONE: "ix_contacts_workspace_id_phone_e164",
}


async def test_a_batch_runs_without_bitmap_scans_and_only_the_batch(runtime, tenant):
    if runtime.db.is_sqlite:
        pytest.skip("a PostgreSQL planner setting")
    async with runtime.db.transaction() as connection:
        await connection.execute(jobs.NO_BITMAP_SCANS)
        assert (await connection.execute(SETTING)).scalar() == "off"
        # A table this small is read whole; at size an index is taken: which one is asked.
        await connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
        for key, btree in BTREES.items():
            sql = str(_LOOKUPS["postgresql", key].compile(dialect=connection.dialect))
            found = await connection.exec_driver_sql("EXPLAIN " + sql, (tenant.id, ["a", "b"]))
            plan = "\n".join(row[0] for row in found)
            assert f"Index Scan using {btree}" in plan, plan
            assert "ix_contacts_search" not in plan, plan
    async with runtime.db.transaction() as connection:
        assert (await connection.execute(SETTING)).scalar() == "on"
