"""Where the benchmark's databases live: SQLite files, or PostgreSQL + Redis on loopback.

`--db postgres` creates fresh, uniquely named databases on the server the tests use
(postgresql+asyncpg://postgres@127.0.0.1:5432) and drops them at the end, and points the
rate limiter at Redis database 14 (the tests use 15), deleting only the keys of the
API keys it made (`rl:key:<id>:*`, ratelimit/limiter.py).
"""

import asyncio
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import seed

PG_SERVER = os.environ.get("HOMEBASE_BENCH_PG", "postgresql+asyncpg://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("HOMEBASE_BENCH_REDIS", "redis://127.0.0.1:6379/14")


def _dsn(url: str) -> str:
    """asyncpg's DSN for a SQLAlchemy URL."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _admin(statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(_dsn(PG_SERVER) + "/postgres")
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@dataclass
class Backend:
    kind: str  # "sqlite" or "postgres"
    databases: list[str] = field(default_factory=list)  # PostgreSQL databases made
    key_ids: list[str] = field(default_factory=list)  # API keys whose Redis counts to delete
    tag: str = field(default_factory=lambda: f"{os.getpid()}_{secrets.token_hex(3)}")

    @property
    def postgres(self) -> bool:
        return self.kind == "postgres"

    @property
    def label(self) -> str:
        return "PostgreSQL + Redis" if self.postgres else "SQLite"

    @property
    def redis_url(self) -> str | None:
        """The production limiter: Redis with PostgreSQL, in-memory with SQLite."""
        return REDIS_URL if self.postgres else None

    def new_database(self, directory: Path, name: str) -> str:
        """A fresh, empty database's SQLAlchemy URL."""
        if not self.postgres:
            directory.mkdir(parents=True, exist_ok=True)
            return f"sqlite+aiosqlite:///{directory / (name + '.sqlite3')}"
        database = f"homebase_bench_{self.tag}_{name}"
        asyncio.run(_admin(f'CREATE DATABASE "{database}"'))
        self.databases.append(database)
        return f"{PG_SERVER}/{database}"

    def seed(self, url: str, workspace_id: str, count: int) -> float:
        if self.postgres:
            return seed.seed_contacts_pg(_dsn(url), workspace_id, count)
        return seed.seed_contacts(url.split(":///", 1)[1], workspace_id, count)

    def seed_leads(self, url: str, workspace_id: str) -> None:
        if self.postgres:
            seed.seed_leads_pg(_dsn(url), workspace_id)
        else:
            seed.seed_leads(url.split(":///", 1)[1], workspace_id)

    def id_at_depth(self, url: str, workspace_id: str, depth: int) -> str:
        if self.postgres:
            return seed.id_at_depth_pg(_dsn(url), workspace_id, depth)
        return seed.id_at_depth(url.split(":///", 1)[1], workspace_id, depth)

    def seed_events(self, url: str, workspace_id: str, count: int) -> float:
        if self.postgres:
            return seed.seed_events_pg(_dsn(url), workspace_id, count)
        return seed.seed_events(url.split(":///", 1)[1], workspace_id, count)

    def seed_timeline(self, url: str, workspace_id: str) -> float:
        if self.postgres:
            return seed.seed_timeline_pg(_dsn(url), workspace_id)
        return seed.seed_timeline(url.split(":///", 1)[1], workspace_id)

    def fetch_value(self, url: str, sql: str, *params: object) -> object:
        """One value of a query written with `?` placeholders."""
        if self.postgres:
            return seed.fetch_value_pg(_dsn(url), sql, *params)
        return seed.fetch_value(url.split(":///", 1)[1], sql, *params)

    def vacuum(self, url: str, *tables: str) -> None:
        """PostgreSQL: VACUUM ANALYZE, as autovacuum would after the tables grew (it is off
        on the development machine). SQLite: nothing."""
        if self.postgres:
            seed.vacuum_pg(_dsn(url), tables)

    def clear_redis(self) -> None:
        if not self.key_ids:
            return
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        try:
            for key_id in self.key_ids:
                names = list(client.scan_iter(match=f"rl:key:{key_id}:*", count=1000))
                if names:
                    client.delete(*names)
        finally:
            client.close()

    def cleanup(self) -> None:
        """Drops the databases made and deletes this run's Redis counts; never raises."""
        try:
            self.clear_redis()
        except Exception as error:  # noqa: BLE001 - cleanup reports and goes on
            print(f"bench: could not clear Redis keys: {error}")
        for database in self.databases:
            for attempt in range(3):
                try:
                    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
                    break
                except Exception as error:  # noqa: BLE001
                    if attempt == 2:
                        print(f"bench: could not drop database {database}: {error}")
                    time.sleep(1)
        self.databases.clear()
