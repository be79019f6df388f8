"""The plan of a walk's page (paging/changes.py) on both databases: the (workspace_id,
updated_at, id) index seeks to the cursor's position, the row value being an index
condition and not a filter, and gives the order, so no sort: a page deep in a walk of
1,000,000 rows costs what the first page does (docs/sync.md, "Cost", has the figures).
"""

from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from homebase.appointments import repository as appointments
from homebase.appointments.schemas import AppointmentFilters
from homebase.contacts import repository as contacts
from homebase.contacts.schemas import ContactFilters
from homebase.db.tenancy import TenantSession
from homebase.deals import repository as deals
from homebase.deals.schemas import DealFilters
from homebase.leads import repository as leads
from homebase.leads.schemas import LeadFilters
from homebase.messaging import repository as messages
from homebase.messaging.schemas import MessageFilters
from homebase.paging import changes
from homebase.tasks import repository as tasks
from homebase.tasks.schemas import TaskFilters


def _contacts(session, filters, *, resuming):
    return contacts.changes_statement(session, filters, pii=True, resuming=resuming)


def _walk(repository):
    def build(session, filters, *, resuming):
        return repository.listing(session, filters).walk(resuming)

    return build


LISTS = {
    "contacts": (_contacts, ContactFilters),
    "leads": (_walk(leads), LeadFilters),
    "deals": (_walk(deals), DealFilters),
    "appointments": (_walk(appointments), AppointmentFilters),
    "tasks": (_walk(tasks), TaskFilters),
    "messages": (_walk(messages), MessageFilters),
}
MOMENT = datetime(2026, 11, 20, 17, 4, 5, 123456, tzinfo=UTC)


def _values(dialect: str) -> dict:
    if dialect == "sqlite":  # the driver's own values: what SQLAlchemy writes
        stamp = MOMENT.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")
        return {changes.HORIZON: stamp, changes.AT: stamp, changes.LAST_ID: "x", changes.LIMIT: 51}
    return {changes.HORIZON: MOMENT, changes.AT: MOMENT, changes.LAST_ID: "x", changes.LIMIT: 51}


@pytest.mark.parametrize("name", LISTS)
async def test_a_later_page_seeks_the_index_and_sorts_nothing(name, runtime, tenant):
    build, filters = LISTS[name]
    async with runtime.db.engine.connect() as connection:
        session = TenantSession(connection, tenant.id)
        built = build(session, filters(), resuming=True)
        statement, own = built if isinstance(built, tuple) else (built, {})
        compiled = statement.compile(dialect=connection.dialect)
        values = compiled.construct_params({**own, **_values(connection.dialect.name)})
        arguments = tuple(values[name] for name in compiled.positiontup or ())
        if connection.dialect.name == "sqlite":
            plan = " ".join(
                str(row[-1])
                for row in await connection.exec_driver_sql(
                    f"EXPLAIN QUERY PLAN {compiled}", arguments
                )
            )
            assert f"USING INDEX ix_{name}_workspace_updated" in plan, plan
            assert "(updated_at,id)>(?,?)" in plan, plan  # the seek, not a filter
            assert "TEMP B-TREE" not in plan, plan  # no sort
        else:
            # A test's tables are nearly empty, where a sequential scan, or another index
            # and a sort of its one row, is as cheap: the question here is whether the
            # index can serve the page, in order, and how. (The engine is in AUTOCOMMIT:
            # the settings are reset before the connection goes back to the pool.)
            for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
                await connection.execute(text(f"SET {setting} = off"))
            try:
                rows = await connection.exec_driver_sql(f"EXPLAIN {compiled}", arguments)
            finally:
                await connection.execute(text("RESET ALL"))
            plan = "\n".join(str(row[0]) for row in rows)
            assert f"Index Scan using ix_{name}_workspace_updated" in plan, plan
            assert "ROW(updated_at, (id)::text) > ROW(" in plan, plan  # an Index Cond
            assert "Filter" not in plan and "Sort" not in plan, plan
