"""Running Alembic from code: `homebase migrate`, `serve` on start, and the tests."""

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url

from homebase.db.engine import Database

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
MIGRATION_LOCK_KEY = 0x686F6D65  # "home"
# Alembic keeps global state, so upgrades within one process also run one at a time.
_in_process = asyncio.Lock()


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def ensure_sqlite_directory(url: str) -> None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


async def upgrade(url: str, revision: str = "head") -> str:
    """Bring the schema at `url` to `revision`; returns the revision now current."""
    ensure_sqlite_directory(url)
    database = Database(url)
    try:
        async with _in_process, database.transaction(write=True) as connection:
            # SQLite: the transaction began IMMEDIATE, so a second process waits for it.
            if connection.dialect.name == "postgresql":
                # Instances starting together migrate one at a time; the others then find
                # the schema current. Released when the transaction ends.
                await connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
                )
            await connection.run_sync(_upgrade, revision)
            return await connection.run_sync(_current)
    finally:
        await database.dispose()


def _upgrade(connection: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def _current(connection: Connection) -> str:
    return MigrationContext.configure(connection).get_current_revision() or ""
