"""The sync guarantee (db/settle.py, docs/sync.md), on both databases, with a real clock:
a walk never passes a change that commits later, because every write transaction
commits within the write timeout or not at all, and a walk serves only changes older
than the settle delay, which is longer.

Every margin comes from the settings set here, none from the machine's speed: the write
timeout (2 s) is far longer than the writes of these tests (one that a starved machine
rolls back is sent again, as a client would: it wrote nothing); the settle delay exceeds
it by db/settle.py's own margin, as config.py requires outside tests; the slow write
holds until the walker has walked past the later writes (an event, not a pause), at most
half the write timeout; and a write meant to time out sleeps past a timeout shortened
for it."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import httpx
import pytest
from sqlalchemy import select

from homebase.contacts import repository as contacts_repository
from homebase.db.engine import Database
from homebase.db.settle import MARGIN_SECONDS, RETRY_AFTER_SECONDS, WriteTimedOut
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import isoformat
from homebase.models import Base, Contact, OutboxEvent
from homebase.ratelimit import MemoryLimiter
from homebase.runtime import Runtime
from tests.conftest import test_settings as settings_for
from tests.support import assert_error, until
from tests.sync.sync_support import walk

WRITE_TIMEOUT = 2.0
SETTLE = WRITE_TIMEOUT + MARGIN_SECONDS
HOLD = WRITE_TIMEOUT / 2  # the most a slow write waits inside its transaction
SHORT = 0.2  # the write timeout of a write meant to pass it
contacts = Contact.__table__


@pytest.fixture
def settle_seconds() -> float:
    return SETTLE


@pytest.fixture
def write_timeout() -> float:
    return WRITE_TIMEOUT


@pytest.fixture
async def runtime(database_url, resolver, settle_seconds, write_timeout) -> AsyncIterator[Runtime]:
    """The usual test runtime (tests/conftest.py), its Database bounding write
    transactions and its lists settling as the module says."""
    # A walking client asks often: the rate limit is not what these tests are about.
    settings = settings_for(
        database_url, sync_settle_seconds=settle_seconds, rate_limit_api_key_per_min=100_000
    )
    runtime = Runtime(
        settings=settings,
        db=Database(settings.database_url, pool_size=5, write_timeout=write_timeout),
        limiter=MemoryLimiter(),
        resolver=resolver,
    )
    yield runtime
    if not runtime.db.is_sqlite:
        async with runtime.db.engine.begin() as connection:
            for table in reversed(Base.metadata.sorted_tables):
                await connection.execute(table.delete())
    await runtime.close()


class Walker:
    """A client keeping a copy of the contacts in step: walks from where it stopped,
    cursor by cursor, then resumes from the last record's updated_at (docs/sync.md)."""

    def __init__(self, runtime: Runtime, tenant, start: str):
        self.runtime, self.tenant = runtime, tenant
        self.position = start
        self.seen: list[tuple[str, str]] = []  # (id, updated_at) in the order served
        self.resumes: set[str] = set()
        self.walks: list[tuple[datetime, list[dict]]] = []  # (when it began, what it got)

    async def once(self) -> list[dict]:
        began = self.runtime.clock()
        records = await walk(self.tenant, "/v1/contacts", self.position, limit=3)
        self.walks.append((began, records))
        self.seen.extend((record["id"], record["updated_at"]) for record in records)
        if records:
            self.position = records[-1]["updated_at"]
            self.resumes.add(self.position)
        return records

    async def until_settled(self, moment: datetime) -> None:
        """Walks until every change stamped by `moment` is past the settle horizon, then
        once more: what the walk has not served by then, it never will."""

        async def settled() -> bool:
            if self.runtime.clock() - timedelta(seconds=SETTLE) > moment:
                return True
            await self.once()
            return False

        await until(settled, SETTLE + 60, what="the settle horizon")
        await self.once()

    def generations(self) -> set[tuple[str, str]]:
        return set(self.seen)

    def repeats_outside_resumes(self) -> list[tuple[str, str]]:
        """Records served twice, other than those of a resume's millisecond (documented:
        a resume from the last updated_at may serve that millisecond again)."""
        counted: dict[tuple[str, str], int] = {}
        for generation in self.seen:
            counted[generation] = counted.get(generation, 0) + 1
        return [g for g, n in counted.items() if n > 1 and g[1] not in self.resumes]


async def _written(send) -> httpx.Response:
    """A write through the API, sent again while it is answered 503: rolled back past the
    write timeout (a starved machine can take that long), it wrote nothing, and a client
    retries it. The guarantee is about what commits."""
    for _ in range(10):
        response = await send()
        if response.status_code != 503:
            break
    return response


async def _create(tenant, name: str) -> dict:
    response = await _written(lambda: tenant.post("/v1/contacts", json={"first_name": name}))
    assert response.status_code == 201, response.text
    return response.json()


async def _stamp_slowly(runtime: Runtime, workspace_id: str, contact_id: str, stamped, hold):
    """A write that stamps a contact, then takes its time before committing (less than
    the write timeout): its stamp is older than its commit by `hold`."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        stamp = session.now()
        await contacts_repository.update(
            session, contact_id, {"notes": "slow", "updated_at": stamp}
        )
        stamped.set()
        await hold()
        committing = runtime.clock()
    return stamp, committing


async def _before_the_walk(runtime, tenant) -> tuple[dict, str]:
    """A contact, and a walk's start after its creation (its changes from now on)."""
    slow = await _create(tenant, "Slow")
    await asyncio.sleep(0.002)
    start = isoformat(runtime.clock())
    await asyncio.sleep(0.002)
    return slow, start


async def test_a_walk_never_passes_a_slow_write_that_commits_later(runtime, tenant):
    slow, start = await _before_the_walk(runtime, tenant)
    walker = Walker(runtime, tenant, start)
    stamped, walked_past_later = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        # Until a walk that began after every later write committed has ended: the walker
        # would have served them by then if it could (at most HOLD, so the write commits
        # within its timeout).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(walked_past_later.wait(), HOLD)

    writer = asyncio.create_task(_stamp_slowly(runtime, tenant.id, slow["id"], stamped, hold))
    await stamped.wait()
    # Later writes, stamped after the slow one and (on PostgreSQL) committed before it.
    later = [asyncio.create_task(_create(tenant, f"Later {n}")) for n in range(3)]

    async def walked() -> bool:
        committed = all(task.done() for task in later)
        await walker.once()
        # SQLite writes one at a time: the later ones wait for the slow one, and a walk
        # during its hold is all there is to see.
        if committed or runtime.db.is_sqlite:
            walked_past_later.set()
        return writer.done() and all(task.done() for task in later)

    await until(walked, 60, every=0.01, what="the slow write and the later ones")
    slow_stamp, committing = await writer
    made = [await task for task in later]
    await walker.until_settled(runtime.clock())

    # No walk that began before the slow write committed went past its stamp.
    for began, records in walker.walks:
        if began < committing:
            assert all(r["updated_at"] <= isoformat(slow_stamp) for r in records), records
    # The client has every change: the slow one too, stamped before the later ones.
    final = (await tenant.get(f"/v1/contacts/{slow['id']}")).json()
    assert final["notes"] == "slow" and final["updated_at"] == isoformat(slow_stamp)
    assert walker.generations() == {
        (slow["id"], final["updated_at"]),
        *((contact["id"], contact["updated_at"]) for contact in made),
    }
    assert all(contact["updated_at"] >= final["updated_at"] for contact in made)


# No settle delay: the write timeout costs nothing here, so it is long, and so is the hold.
@pytest.mark.parametrize(("settle_seconds", "write_timeout"), [(0.0, 20.0)])
async def test_without_the_settle_delay_a_walk_skips_the_slow_write(
    runtime, tenant, backend, write_timeout
):
    """The control: with no settle delay, the walker serves a later write committed
    first, moves past it, and never sees the slow one. SQLite commits one write at a
    time (db/engine.py), so no later stamp commits first there."""
    if backend == "sqlite":
        pytest.skip("SQLite writes one transaction at a time: nothing commits out of order")
    slow, start = await _before_the_walk(runtime, tenant)
    walker = Walker(runtime, tenant, start)
    stamped, seen_later = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        await asyncio.wait_for(seen_later.wait(), write_timeout / 2)

    writer = asyncio.create_task(_stamp_slowly(runtime, tenant.id, slow["id"], stamped, hold))
    await stamped.wait()
    later = await _create(tenant, "Later")

    async def served() -> bool:
        return later["id"] in {record["id"] for record in await walker.once()}

    await until(served, write_timeout / 2, every=0.01, what="the later write, walked")
    seen_later.set()
    await writer
    await walker.once()
    await walker.once()
    assert later["id"] in {record_id for record_id, _ in walker.seen}
    assert slow["id"] not in {record_id for record_id, _ in walker.seen}  # skipped


async def test_a_write_past_the_timeout_is_rolled_back_and_answered_503(
    runtime, tenant, monkeypatch
):
    person = await _create(tenant, "Dana")
    update = contacts_repository.update

    async def slow_update(session, contact_id, values):
        await update(session, contact_id, values)
        await asyncio.sleep(SHORT + 0.2)

    monkeypatch.setattr(contacts_repository, "update", slow_update)
    monkeypatch.setattr(runtime.db, "write_timeout", SHORT)
    response = await tenant.patch(f"/v1/contacts/{person['id']}", json={"first_name": "Slow"})
    assert_error(response, 503, "service_unavailable")
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    monkeypatch.setattr(contacts_repository, "update", update)
    monkeypatch.setattr(runtime.db, "write_timeout", WRITE_TIMEOUT)
    # Nothing was written: not the change, not its event.
    now = (await tenant.get(f"/v1/contacts/{person['id']}")).json()
    assert now == person
    async with runtime.db.transaction(write=False) as connection:
        events = await connection.execute(
            select(OutboxEvent.__table__.c.type).where(
                OutboxEvent.__table__.c.workspace_id == tenant.id
            )
        )
        assert [row.type for row in events] == ["contact.created"]


async def test_a_transaction_past_the_timeout_raises_and_commits_nothing(
    runtime, tenant, monkeypatch
):
    person = await _create(tenant, "Dana")
    monkeypatch.setattr(runtime.db, "write_timeout", SHORT)
    with pytest.raises(WriteTimedOut):
        async with runtime.db.transaction() as connection:
            session = TenantSession(connection, tenant.id, clock=runtime.clock)
            await contacts_repository.update(session, person["id"], {"first_name": "Late"})
            await asyncio.sleep(SHORT + 0.1)
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        row = await contacts_repository.get(session, person["id"])
    assert row is not None and row["first_name"] == "Dana"


async def test_a_walk_beside_concurrent_writers_gets_every_change_once(runtime, tenant):
    """Writers change contacts concurrently while the client walks; each round changes
    every contact once, so each change is a generation the client must get: every one,
    once (a repeat only of a resume's millisecond, which the client upserts)."""
    start = isoformat(runtime.clock())
    await asyncio.sleep(0.002)
    people = [await _create(tenant, f"P{n}") for n in range(12)]
    committed = {(person["id"], person["updated_at"]) for person in people}
    walker = Walker(runtime, tenant, start)
    await walker.until_settled(runtime.clock())  # the creations: the first generation

    async def change(ids: list[str], round_: int) -> None:
        for contact_id in ids:
            path, body = f"/v1/contacts/{contact_id}", {"notes": f"round {round_}"}
            response = await _written(lambda path=path, body=body: tenant.patch(path, json=body))
            assert response.status_code == 200, response.text
            committed.add((contact_id, response.json()["updated_at"]))

    for round_ in range(3):
        ids = [person["id"] for person in people]
        writers = [asyncio.create_task(change(ids[n::4], round_)) for n in range(4)]

        async def written(writers: list[asyncio.Task] = writers) -> bool:
            done = all(task.done() for task in writers)
            await walker.once()
            return done

        await until(written, 60, every=0.02, what="the round's writers")
        for task in writers:
            await task
        await walker.until_settled(runtime.clock())

    assert walker.generations() == committed
    assert walker.repeats_outside_resumes() == []
