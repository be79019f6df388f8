"""Running Alembic from code: `homebase migrate`, `serve` on start, and the tests."""

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


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
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade, revision)
            return await connection.run_sync(_current)
    finally:
        await engine.dispose()


def _upgrade(connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def _current(connection) -> str:
    return MigrationContext.configure(connection).get_current_revision() or ""
