"""Fast seeding for the benchmark: contacts straight into the database.

SQLite: one `executemany` in one transaction. PostgreSQL: asyncpg's binary COPY
(`copy_records_to_table`), then VACUUM ANALYZE, as autovacuum would leave a table that
size. Values are in the forms SQLAlchemy writes (SQLite: naive UTC "YYYY-MM-DD
HH:MM:SS.ffffff" datetimes and JSON text; PostgreSQL: timestamptz and jsonb), so the
service reads them back exactly as rows it made itself. Ids come from `new_id`,
generated in order, so they are time-ordered like real ones, and every contact is
stamped (`created_at` = `updated_at`) a millisecond after the one before, starting two
hours ago (STAMPS_BEFORE): the `updated_after` walk (docs/sync.md) meets them in list
order, and all are long settled, so the service serves them with its production settle
interval.

`seed_events` stores outbox events the same way (a million in the scale part's
workspace, for GET /v1/events): contact events a millisecond apart from a day ago,
already dispatched, so a worker on the same database has nothing to fan out.

The throughput workspace's contacts also get a lead each (`seed_leads`), as a
workspace of that size has: the leads table is then not empty when the POST /v1/leads
scenario starts, and on PostgreSQL its statistics are those of a used table (with an
empty, never analyzed table, and autovacuum off, as on this machine, the prepared
consent UPDATE's cached plan reads the workspace's leads by `(workspace_id, id)`
instead of seeking the number's: docs/performance.md).

Names and phones are chosen for the search figures (bench/scale.py): one first name in
ten is "Joanne" (SEARCH_MANY, "ann", finds one contact in ten, spread evenly), no name
holds "zq" (SEARCH_NONE), and every contact has its own number, so seven digits
(SEARCH_PHONE) find exactly one.
"""

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from homebase.kit.ids import new_id

STAGES = ("LEAD", "HOT_LEAD", "NURTURE", "ACTIVE_CLIENT", "PAST_CLIENT", "SPHERE")
SOURCES = ("Zillow", "Website", "Referral", "Open house", "Facebook")
TAGS = (["buyer"], ["seller", "pre-approved"], [], ["buyer", "investor", "cash"])
FIRST_NAMES = (
    "Dana",
    "Marcus",
    "Joanne",
    "Priya",
    "Luis",
    "Keiko",
    "Omar",
    "Grace",
    "Tomas",
    "Ruth",
)  # only Joanne holds "ann"
LAST_NAMES = ("Reyes", "Okafor", "Lindqvist", "Moreau", "Castillo", "Whitfield", "Nakamura")
SEARCH_NONE = "zqxv"  # no contact's name, email or phone holds it
SEARCH_MANY = "ann"  # Joanne: every tenth contact
PHONE_BASE = 2_000_000  # contact i has +1 646 <PHONE_BASE + i as 3 + 4 digits>
STAMPS_BEFORE = timedelta(hours=2)  # the first contact's stamp, before the seeding
EVENTS_BEFORE = timedelta(days=1)  # the first event's, well inside the retention period
STEP = timedelta(milliseconds=1)
EVENT_COLUMNS = ("id", "workspace_id", "type", "data", "occurred_at", "dispatched_at", "contact_id")
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


def search_phone(count: int) -> tuple[str, int]:
    """Seven digits that find exactly one of `count` contacts, and that contact's index
    (90% of the way into the list, so a scan in id order meets it late)."""
    index = count // 10
    return f"{PHONE_BASE + index:07d}", index


def _sqlite_datetime(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")


def rows(workspace_id: str, count: int, *, sqlite_forms: bool) -> Iterator[tuple]:
    first = datetime.now(UTC) - STAMPS_BEFORE
    tags = [json.dumps(value) for value in TAGS]
    for index in range(count):
        moment = first + index * STEP
        stamp = _sqlite_datetime(moment) if sqlite_forms else moment
        email = f"person{index}@example.com"
        number = f"{PHONE_BASE + index:07d}"
        yield (
            new_id("con"),
            workspace_id,
            FIRST_NAMES[index % len(FIRST_NAMES)],
            f"{LAST_NAMES[index % len(LAST_NAMES)]}{index}",
            email,
            email,
            f"+1 646 {number[:3]} {number[3:]}",
            f"+1646{number}",
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
    """Inserts `count` contacts into the workspace (SQLite); returns the seconds it took."""
    started = time.perf_counter()
    connection = sqlite3.connect(database_path)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=OFF")
        sql = (
            f"INSERT INTO contacts ({', '.join(COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in COLUMNS)})"
        )
        source = rows(workspace_id, count, sqlite_forms=True)
        with connection:
            while True:
                chunk = [row for _, row in zip(range(batch), source, strict=False)]
                if not chunk:
                    break
                connection.executemany(sql, chunk)
    finally:
        connection.close()
    return time.perf_counter() - started


def _leads_sql(json_object: str) -> str:
    """One lead per contact of the workspace, made from it, as a lead source would have:
    linked, unrouted ('skipped'), without consent."""
    return (
        f"INSERT INTO leads ({', '.join(LEAD_COLUMNS)}) "
        "SELECT 'lea_' || substr(id, 5), workspace_id, id, first_name, last_name, email, "
        f"phone, phone_e164, source, NULL, {json_object}, NULL, NULL, 'skipped', NULL, NULL, "
        "NULL, NULL, NULL, NULL, created_at, created_at FROM contacts WHERE workspace_id = "
    )


LEAD_COLUMNS = (
    "id",
    "workspace_id",
    "contact_id",
    "first_name",
    "last_name",
    "email",
    "phone",
    "phone_e164",
    "source",
    "source_ref",
    "context",
    "consent_id",
    "consent_expires_at",
    "routing_status",
    "assignee_id",
    "assigned_at",
    "routing_rule_id",
    "routing_method",
    "rotation_turn",
    "routing_reason",
    "created_at",
    "updated_at",
)


def seed_leads(database_path: str, workspace_id: str) -> None:
    """A lead for every contact of the workspace (SQLite)."""
    connection = sqlite3.connect(database_path)
    try:
        with connection:
            connection.execute(_leads_sql("'{}'") + "?", (workspace_id,))
    finally:
        connection.close()


async def _pg_seed_leads(dsn: str, workspace_id: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(_leads_sql("'{}'::jsonb") + "$1", workspace_id)
        await connection.execute("VACUUM ANALYZE leads")
    finally:
        await connection.close()


def seed_leads_pg(dsn: str, workspace_id: str) -> None:
    """A lead for every contact of the workspace (PostgreSQL), then VACUUM ANALYZE."""
    asyncio.run(_pg_seed_leads(dsn, workspace_id))


def id_at_depth(database_path: str, workspace_id: str, depth: int) -> str:
    """The id of the `depth`-th contact in list order (newest first), SQLite."""
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


async def _pg_seed(dsn: str, workspace_id: str, count: int) -> None:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        await connection.copy_records_to_table(
            "contacts", records=rows(workspace_id, count, sqlite_forms=False), columns=COLUMNS
        )
        await connection.execute("VACUUM ANALYZE contacts")
    finally:
        await connection.close()


def seed_contacts_pg(dsn: str, workspace_id: str, count: int) -> float:
    """Inserts `count` contacts into the workspace (PostgreSQL); returns the seconds."""
    started = time.perf_counter()
    asyncio.run(_pg_seed(dsn, workspace_id, count))
    return time.perf_counter() - started


async def _pg_id_at_depth(dsn: str, workspace_id: str, depth: int) -> str | None:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(
            "SELECT id FROM contacts WHERE workspace_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2",
            workspace_id,
            depth,
        )
    finally:
        await connection.close()


def id_at_depth_pg(dsn: str, workspace_id: str, depth: int) -> str:
    found = asyncio.run(_pg_id_at_depth(dsn, workspace_id, depth))
    if found is None:
        raise RuntimeError(f"no contact at depth {depth}")
    return found


def event_rows(workspace_id: str, count: int, *, sqlite_forms: bool) -> Iterator[tuple]:
    """Contact events as the contacts service emits them (masked data), in turn a
    contact.created, a contact.tag_added and a contact.stage_changed, each about its own
    contact id (none of the seeded contacts: the events API reads only the events)."""
    first = datetime.now(UTC) - EVENTS_BEFORE
    for index in range(count):
        moment = first + index * STEP
        stamp = _sqlite_datetime(moment) if sqlite_forms else moment
        contact_id = new_id("con")
        kind = index % 3
        if kind == 0:
            event_type = "contact.created"
            data: dict = {
                "id": contact_id,
                "first_name": FIRST_NAMES[index % len(FIRST_NAMES)],
                "last_name": f"{LAST_NAMES[index % len(LAST_NAMES)]}{index}",
                "email": "p***@example.com",
                "phone": "+1 *** *** 0142",
                "stage": "LEAD",
                "source": "Zillow",
                "tags": ["buyer"],
                "owner_id": None,
            }
        elif kind == 1:
            event_type = "contact.tag_added"
            data = {"id": contact_id, "tag": "buyer", "tags": ["buyer"]}
        else:
            event_type = "contact.stage_changed"
            data = {"id": contact_id, "previous_stage": "LEAD", "stage": "HOT_LEAD"}
        yield (new_id("evt"), workspace_id, event_type, json.dumps(data), stamp, stamp, contact_id)


def seed_events(database_path: str, workspace_id: str, count: int, batch: int = 50_000) -> float:
    """Inserts `count` dispatched outbox events into the workspace (SQLite); seconds."""
    started = time.perf_counter()
    connection = sqlite3.connect(database_path)
    try:
        connection.execute("PRAGMA synchronous=OFF")
        sql = (
            f"INSERT INTO outbox_events ({', '.join(EVENT_COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in EVENT_COLUMNS)})"
        )
        source = event_rows(workspace_id, count, sqlite_forms=True)
        with connection:
            while True:
                chunk = [row for _, row in zip(range(batch), source, strict=False)]
                if not chunk:
                    break
                connection.executemany(sql, chunk)
    finally:
        connection.close()
    return time.perf_counter() - started


async def _pg_seed_events(dsn: str, workspace_id: str, count: int) -> None:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        await connection.copy_records_to_table(
            "outbox_events",
            records=event_rows(workspace_id, count, sqlite_forms=False),
            columns=EVENT_COLUMNS,
        )
        await connection.execute("VACUUM ANALYZE outbox_events")
    finally:
        await connection.close()


def seed_events_pg(dsn: str, workspace_id: str, count: int) -> float:
    started = time.perf_counter()
    asyncio.run(_pg_seed_events(dsn, workspace_id, count))
    return time.perf_counter() - started


def fetch_value(database_path: str, sql: str, *params: object) -> object:
    """One value of a query with `?` placeholders (SQLite)."""
    connection = sqlite3.connect(database_path)
    try:
        row = connection.execute(sql, params).fetchone()
    finally:
        connection.close()
    return None if row is None else row[0]


async def _pg_fetch_value(dsn: str, sql: str, params: tuple) -> object:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(sql, *params)
    finally:
        await connection.close()


def fetch_value_pg(dsn: str, sql: str, *params: object) -> object:
    """One value of a query with `?` placeholders (PostgreSQL: made $1, $2, ...)."""
    numbered, position = [], 0
    for piece in sql.split("?"):
        numbered.append(piece)
        position += 1
        numbered.append(f"${position}")
    return asyncio.run(_pg_fetch_value(dsn, "".join(numbered[:-1]), params))


async def _pg_vacuum(dsn: str, tables: tuple[str, ...]) -> None:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        for table in tables:
            await connection.execute(f"VACUUM ANALYZE {table}")
    finally:
        await connection.close()


def vacuum_pg(dsn: str, tables: tuple[str, ...]) -> None:
    asyncio.run(_pg_vacuum(dsn, tables))


# The console part (bench/people.py): a timeline entry for every contact of the workspace,
# as a used book has (a note each), made from the contacts in one statement.
def _timeline_sql(json_object: str) -> str:
    return (
        "INSERT INTO timeline_events (id, workspace_id, contact_id, type, title, body, data, "
        "actor, occurred_at) SELECT 'tev_' || substr(id, 5), workspace_id, id, 'note', "
        f"'Note added', 'Asked about the open house on Saturday.', {json_object}, NULL, "
        "created_at FROM contacts WHERE workspace_id = "
    )


def seed_timeline(database_path: str, workspace_id: str) -> float:
    """A note on every contact's timeline (SQLite); returns the seconds it took."""
    started = time.perf_counter()
    connection = sqlite3.connect(database_path)
    try:
        with connection:
            connection.execute(_timeline_sql("'{}'") + "?", (workspace_id,))
    finally:
        connection.close()
    return time.perf_counter() - started


async def _pg_seed_timeline(dsn: str, workspace_id: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(_timeline_sql("'{}'::jsonb") + "$1", workspace_id)
        await connection.execute("VACUUM ANALYZE timeline_events")
    finally:
        await connection.close()


def seed_timeline_pg(dsn: str, workspace_id: str) -> float:
    """A note on every contact's timeline (PostgreSQL), then VACUUM ANALYZE; seconds."""
    started = time.perf_counter()
    asyncio.run(_pg_seed_timeline(dsn, workspace_id))
    return time.perf_counter() - started
