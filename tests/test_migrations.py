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
