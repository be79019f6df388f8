"""Fast seeding for the benchmark: contacts straight into the SQLite file.

One `executemany` in one transaction, with values in the forms SQLAlchemy writes on
SQLite (naive UTC "YYYY-MM-DD HH:MM:SS.ffffff" datetimes, JSON text), so the service
reads them back exactly as rows it made itself. Ids come from `new_id`, generated in
order, so they are time-ordered like real ones.
"""

import json
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime

from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164

STAGES = ("LEAD", "HOT_LEAD", "NURTURE", "ACTIVE_CLIENT", "PAST_CLIENT", "SPHERE")
SOURCES = ("Zillow", "Website", "Referral", "Open house", "Facebook")
TAGS = (["buyer"], ["seller", "pre-approved"], [], ["buyer", "investor", "cash"])
COLUMNS = (
    "id",
    "workspace_id",
    "first_name",
    "last_name",
    "email",
    "email_lower",
    "phone",
    "phone_e164",
    "stage",
    "source",
    "tags",
    "notes",
    "owner_id",
    "ai_paused_at",
    "anonymized_at",
    "created_at",
    "updated_at",
)


def _sqlite_datetime(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")


def _rows(workspace_id: str, count: int) -> Iterator[tuple]:
    stamp = _sqlite_datetime(datetime.now(UTC))
    tags = [json.dumps(value) for value in TAGS]
    phone_e164 = to_e164("+1 415 555 0100")
    for index in range(count):
        email = f"person{index}@example.com"
        yield (
            new_id("con"),
            workspace_id,
            f"First{index}",
            f"Last{index}",
            email,
            email,
            "+1 415 555 0100",
            phone_e164,
            STAGES[index % len(STAGES)],
            SOURCES[index % len(SOURCES)],
            tags[index % len(tags)],
            "Wants 3 beds near the park." if index % 3 == 0 else None,
            None,
            stamp if index % 10 == 0 else None,
            None,
            stamp,
            stamp,
        )


def seed_contacts(database_path: str, workspace_id: str, count: int, batch: int = 50_000) -> float:
    """Inserts `count` contacts into the workspace; returns the seconds it took."""
    started = time.perf_counter()
    connection = sqlite3.connect(database_path)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=OFF")
        sql = (
            f"INSERT INTO contacts ({', '.join(COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in COLUMNS)})"
        )
        rows = _rows(workspace_id, count)
        with connection:
            while True:
                chunk = [row for _, row in zip(range(batch), rows, strict=False)]
                if not chunk:
                    break
                connection.executemany(sql, chunk)
    finally:
        connection.close()
    return time.perf_counter() - started


def id_at_depth(database_path: str, workspace_id: str, depth: int) -> str:
    """The id of the `depth`-th contact in list order (newest first)."""
    connection = sqlite3.connect(database_path)
    try:
        row = connection.execute(
            "SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?",
            (workspace_id, depth),
        ).fetchone()
    finally:
        connection.close()
    if row is None:
        raise RuntimeError(f"no contact at depth {depth}")
    return row[0]
