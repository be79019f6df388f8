"""The schema comes only from the migrations, and instances may migrate at the same time."""

import asyncio
import json
import os
import sys

from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import create_async_engine

from homebase.models import Base


async def test_migrations_build_every_model_table(database_url):
    engine = create_async_engine(database_url)
    async with engine.connect() as connection:
        tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    await engine.dispose()
    assert set(Base.metadata.tables) <= tables


async def test_instances_migrating_together_all_succeed(backend, tmp_path, request):
    """Three `homebase migrate` processes on one fresh database: all exit 0, same revision."""
    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/fresh.sqlite3"
    else:
        url = await _fresh_postgres_database(request)
    env = {**os.environ, "HOMEBASE_DATABASE_URL": url, "HOMEBASE_SECRET_KEY": "test-secret"}
    processes = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "homebase", "migrate", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE) for _ in range(3)]
    results = [await asyncio.wait_for(process.communicate(), 120) for process in processes]
    assert [process.returncode for process in processes] == [0, 0, 0], results
    revisions = {json.loads(stdout)["revision"] for stdout, _ in results}
    assert len(revisions) == 1 and revisions.pop()


async def _fresh_postgres_database(request) -> str:
    import uuid

    from sqlalchemy import text

    from tests.support import POSTGRES_URL

    name = f"homebase_migrate_{uuid.uuid4().hex[:8]}"
    admin = create_async_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    async with admin.connect() as connection:
        await connection.execute(text(f'CREATE DATABASE "{name}"'))
    await admin.dispose()

    def drop():
        async def run():
            engine = create_async_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
            async with engine.connect() as connection:
                await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            await engine.dispose()
        asyncio.run(run())

    request.addfinalizer(drop)
    return POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"


async def test_0011_backfills_the_contact_of_existing_events(backend, tmp_path, request):
    """Events written before 0011 name their contact afterwards, by emit's rule."""
    from datetime import UTC, datetime

    from sqlalchemy import text

    from homebase.db.migrate import upgrade

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/old.sqlite3"
    else:
        url = await _fresh_postgres_database(request)
    await upgrade(url, "0010")
    now = datetime.now(UTC)
    events = [("evt_1", "contact.created", {"id": "con_1", "first_name": "Dana"}),
              ("evt_2", "contact.tag_added", {"id": "con_1", "tag": "x", "tags": ["x"]}),
              ("evt_3", "lead.created", {"id": "lea_1", "contact_id": "con_2"}),
              ("evt_4", "lead.created", {"id": "lea_2", "contact_id": None}),
              ("evt_5", "message.sent", {"id": "msg_1"}),
              ("evt_6", "deal.stage_changed", {"id": "dea_1", "contact_id": "con_3"}),
              ("evt_7", "contact.updated", {"id": 7}),
              ("evt_8", "document.signed", {"contact_id": "x" * 41})]
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO workspaces (id, name, status, settings, created_at) "
                "VALUES ('wsp_1', 'W', 'active', '{}', :now)"), {"now": now})
            for event_id, event_type, data in events:
                await connection.execute(text(
                    "INSERT INTO outbox_events (id, workspace_id, type, data, occurred_at) "
                    "VALUES (:id, 'wsp_1', :type, :data, :now)"),
                    {"id": event_id, "type": event_type, "data": json.dumps(data), "now": now})
        await upgrade(url)
        async with engine.connect() as connection:
            rows = dict((await connection.execute(text(
                "SELECT id, contact_id FROM outbox_events"))).all())
            indexes = await connection.run_sync(
                lambda sync: {i["name"] for i in inspect(sync).get_indexes("outbox_events")})
    finally:
        await engine.dispose()
    assert rows == {"evt_1": "con_1", "evt_2": "con_1", "evt_3": "con_2", "evt_4": None,
                    "evt_5": None, "evt_6": "con_3", "evt_7": None, "evt_8": None}
    assert "ix_outbox_events_workspace_contact" in indexes
