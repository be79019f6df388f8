"""Search and filters at 1,000,000 contacts: `python -m bench.search --db sqlite|postgres`.

Seeds one workspace with `--contacts` contacts (varied names, emails and phones) into a
fresh database migrated to 0015, then migrates to head, which builds the search and
filter indexes over the existing rows (migrations 0016 and 0017; their time is
reported), and calls the app in-process through httpx's ASGI transport, one client, one
request at a time. Reports the p50 of each case and its ratio to the unfiltered first
page, measured interleaved in the same run, and the range of that ratio over the rounds
(each round's p50 against the same round's first page: the machine's drift shows there)
(docs/performance.md, "Search at 1,000,000 contacts"). The key holds contacts:read:pii,
so `q` also searches emails and phones (the wider rule).
PostgreSQL: a scratch database on the tests' server (HOMEBASE_TEST_POSTGRES_URL),
dropped afterwards.
"""

import argparse
import asyncio
import json
import os
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

FIRST = (
    "Maria",
    "James",
    "Dana",
    "Luis",
    "Aiko",
    "Noah",
    "Emma",
    "Omar",
    "Priya",
    "Chen",
    "Sofia",
    "Liam",
    "Fatima",
    "Ethan",
    "Olga",
    "Mark",
    "Ines",
    "Kwame",
    "Hana",
    "Ivan",
    "Lucia",
    "Tom",
    "Zara",
    "Ben",
    "Nora",
    "Raj",
    "Elena",
    "Sam",
    "Mia",
    "Jonas",
)
SYLLABLES = (
    "ber",
    "son",
    "ley",
    "ton",
    "ric",
    "van",
    "del",
    "mor",
    "tes",
    "kin",
    "ham",
    "lin",
    "ros",
    "gar",
    "wel",
    "dan",
    "pol",
    "sen",
    "tur",
    "ves",
)
CASES = {  # name -> query string; "first page" is the baseline
    "first page": "limit=50",
    "q no match": "limit=50&q=zqxw",
    "q many (first name 'mar', 1 in 15)": "limit=50&q=mar",
    "q phone digits (one contact)": "limit=50&q=2551234",
    "q last name (1 in 8,000)": "limit=50&q=bertonric",
    "q name part (1 in 400)": "limit=50&q=berton",
    "q formatted phone (one contact)": "limit=50&q=%2B1 415 255 1234",
    "stage=PAST_CLIENT (1 in 6)": "limit=50&stage=PAST_CLIENT",
    "owner_id (1 in 1,000)": "limit=50&owner_id=usr_rare",
    "source (1 in 1,000)": "limit=50&source=Billboard",
    "tag (1 in 1,000)": "limit=50&tag=vip",
    "tag nobody has": "limit=50&tag=nope",
}
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
STAGES = ("LEAD", "HOT_LEAD", "NURTURE", "ACTIVE_CLIENT", "PAST_CLIENT", "SPHERE")


def _rows(workspace_id: str, count: int, now: datetime) -> Iterator[tuple]:
    for index in range(count):
        first = FIRST[index % len(FIRST)]
        last = (
            SYLLABLES[(index // 7) % 20]
            + SYLLABLES[(index // 140) % 20]
            + SYLLABLES[(index // 2800) % 20]
        ).capitalize()
        email = f"{first}.{last}{index}@example.com".lower()
        group, number = (index // 10_000) % 100, index % 10_000
        rare = index % 1000 == 0
        yield (
            f"con_{index:026d}",
            workspace_id,
            first,
            last,
            email,
            email,
            f"+1 415 2{group:02d} {number:04d}",
            f"+14152{group:02d}{number:04d}",
            STAGES[index % 6],
            "Billboard" if rare else "Zillow",
            ["vip"] if rare else ["buyer"],
            None,
            "usr_rare" if rare else "usr_common",
            None,
            None,
            now,
            now,
        )


def _seed_sqlite(path: Path, workspace_id: str, count: int) -> None:
    import sqlite3

    stamp = datetime.now(UTC).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
    connection = sqlite3.connect(path)
    sql = f"INSERT INTO contacts ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"
    with connection:
        connection.executemany(
            sql,
            (
                (*row[:10], json.dumps(row[10]), *row[11:15], stamp, stamp)
                for row in _rows(workspace_id, count, stamp)
            ),
        )
    connection.close()


async def _seed_postgres(url: str, workspace_id: str, count: int) -> None:
    import asyncpg

    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        # COPY is binary: jsonb's binary form is a version byte, then the text.
        await connection.set_type_codec(
            "jsonb",
            schema="pg_catalog",
            format="binary",
            encoder=lambda value: b"\x01" + json.dumps(value).encode(),
            decoder=lambda data: json.loads(data[1:]),
        )
        await connection.copy_records_to_table(
            "contacts", columns=COLUMNS, records=_rows(workspace_id, count, datetime.now(UTC))
        )
        await connection.execute("ANALYZE contacts")
    finally:
        await connection.close()


async def _postgres_database() -> tuple[str, str]:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    server = os.environ.get(
        "HOMEBASE_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
    )
    name = f"homebase_bench_search_{uuid.uuid4().hex[:8]}"
    admin = create_async_engine(server, isolation_level="AUTOCOMMIT")
    async with admin.connect() as connection:
        await connection.execute(text(f'CREATE DATABASE "{name}"'))
    await admin.dispose()
    return server, name


async def _drop_postgres(server: str, name: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    admin = create_async_engine(server, isolation_level="AUTOCOMMIT")
    async with admin.connect() as connection:
        await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    await admin.dispose()


async def seeded_workspace(url: str, db: str, count: int, name: str) -> tuple[str, float, float]:
    """A fresh database at 0015 with one workspace of `count` contacts, then migrated to
    head (which builds the search indexes over them); the environment points the app at it.
    Returns a key (contacts:read and :pii) and the seconds seeding and migrating took."""
    from homebase.db.migrate import upgrade

    await upgrade(url, "0015")
    os.environ.update(
        HOMEBASE_DATABASE_URL=url,
        HOMEBASE_SECRET_KEY=f"bench-{name.lower().split()[0]}-secret",
        HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN="100000000",
    )
    from homebase.auth.api_keys import create_api_key
    from homebase.db.tenancy import TenantSession
    from homebase.runtime import Runtime
    from homebase.workspaces.service import create_workspace

    runtime = Runtime.from_settings()
    async with runtime.db.transaction() as connection:
        workspace = await create_workspace(connection, name, now=runtime.clock())
        key = await create_api_key(
            TenantSession(connection, workspace["id"], clock=runtime.clock),
            scopes=["contacts:read", "contacts:read:pii"],
            name="bench",
            expires_in_days=None,
        )
    await runtime.close()
    started = time.perf_counter()
    if db == "sqlite":
        _seed_sqlite(Path(url.split("///", 1)[1]), workspace["id"], count)
    else:
        await _seed_postgres(url, workspace["id"], count)
    seeded = time.perf_counter() - started
    started = time.perf_counter()
    await upgrade(url)
    return key.key, seeded, time.perf_counter() - started


async def _measure(url: str, db: str, count: int, rounds: int, per_round: int) -> dict:
    import httpx

    from homebase.root.app import create_app
    from homebase.runtime import Runtime

    key, seeded, migrated = await seeded_workspace(url, db, count, "Search Realty")
    runtime = Runtime.from_settings()
    app = create_app(runtime)
    samples: dict[str, list[list[float]]] = {name: [] for name in CASES}
    found: dict[str, int] = {}
    headers = {"authorization": f"token {key}"}
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1", headers=headers
        ) as client,
    ):
        for name, query in CASES.items():  # warm-up, and what each case finds
            response = await client.get(f"/v1/contacts?{query}")
            response.raise_for_status()
            found[name] = len(response.json()["data"])
        for _ in range(rounds):  # interleaved: the machine's drift hits every case alike
            for name, query in CASES.items():
                samples[name].append([])
                for _ in range(per_round):
                    begun = time.perf_counter()
                    response = await client.get(f"/v1/contacts?{query}")
                    samples[name][-1].append(time.perf_counter() - begun)
                    if response.status_code != 200:
                        raise RuntimeError(f"{query}: {response.status_code}")
    await runtime.close()
    p50 = {
        name: statistics.median(value for one in values for value in one) * 1000
        for name, values in samples.items()
    }
    rounds_p50 = {
        name: [statistics.median(one) for one in values] for name, values in samples.items()
    }
    spread = {
        name: [mine / first for mine, first in zip(values, rounds_p50["first page"], strict=True)]
        for name, values in rounds_p50.items()
    }
    return {
        "db": db,
        "contacts": count,
        "seed_s": round(seeded, 1),
        "migrate_s": round(migrated, 1),
        "requests_per_case": rounds * per_round,
        "rounds": rounds,
        "cases": [
            {
                "case": name,
                "query": CASES[name],
                "rows": found[name],
                "p50_ms": round(p50[name], 2),
                "ratio": round(p50[name] / p50["first page"], 2),
                "rounds_ratio": [round(min(spread[name]), 2), round(max(spread[name]), 2)],
            }
            for name in CASES
        ],
    }


def _table(result: dict) -> str:
    lines = [
        f"{result['db']}: {result['contacts']:,} contacts, seeded in {result['seed_s']} s, "
        f"migrations 0016-0017 over them in {result['migrate_s']} s; "
        f"{result['requests_per_case']} requests per case in {result['rounds']} rounds, "
        "one client",
        "",
        "| GET /v1/contacts | rows | p50 ms | ratio to first page | rounds' ratios |",
        "|---|---:|---:|---:|---:|",
    ]
    for case in result["cases"]:
        low, high = case["rounds_ratio"]
        lines.append(
            f"| {case['case']} (`{case['query']}`) | {case['rows']} | "
            f"{case['p50_ms']:.2f} | {case['ratio']:.2f} | {low:.2f}-{high:.2f} |"
        )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> dict:
    if args.db == "sqlite":
        directory = Path(tempfile.mkdtemp(prefix="homebase-search-"))
        try:
            return await _measure(
                f"sqlite+aiosqlite:///{directory}/search.sqlite3",
                "sqlite",
                args.contacts,
                args.rounds,
                args.per_round,
            )
        finally:
            shutil.rmtree(directory, ignore_errors=True)  # about 1 GB at 1,000,000
    server, name = await _postgres_database()
    try:
        url = server.rsplit("/", 1)[0] + f"/{name}"
        return await _measure(url, "postgres", args.contacts, args.rounds, args.per_round)
    finally:
        await _drop_postgres(server, name)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--contacts", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-round", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    if not 1 <= args.contacts <= 5_000_000 or not 1 <= args.rounds * args.per_round <= 10_000:
        parser.error("contacts must be 1-5,000,000 and rounds x per-round 1-10,000")
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2) if args.json else _table(result))


if __name__ == "__main__":
    main()
