"""The worker's part of an import: claim a queued import, then write its rows a batch at a
time (docs/imports-exports.md, "How an import runs").

`run` is the worker job (root/jobs.py, `imports.run`). Like the AI's job it never
holds up a round: it claims what it has room for (CONCURRENCY imports at once per worker
process) and starts each in the background (worker/background.py), so webhook
deliveries and sends keep their pace while a 5,000-row import runs.

- **One at a time per workspace.** A claim takes the oldest queued import of a workspace
  that has none running; the next waits, queued. The partial unique index
  ux_imports_running_workspace makes that hold between concurrent claimers too (the
  loser's claim fails and is retried next round).
- **Batches.** Each batch (BATCH rows) is one write transaction: its contacts or leads,
  their events, its refused rows, and the job's new position and counts commit
  together, well within HOMEBASE_DATABASE_WRITE_TIMEOUT_SECONDS. Between batches other
  writers get their turn.
- **Crash.** The claim is a lease (worker/queue.py), renewed by every batch, which is
  fenced by its token and by the position it started from. A worker that dies leaves
  the lease to lapse; the next claim takes the import again and resumes at the last
  committed position, so no row is written twice. After MAX_ATTEMPTS claims the import
  is `failed` (a batch that can never commit would otherwise be retried forever).
- **Rows.** An import of POST /v1/imports reads its rows from its `payload`; one the
  console started from a CSV upload reads them from its rows file (row_files.py), a
  batch at a time, forgetting each batch's lines once it is committed and deleting the
  file when the import finishes.
"""

import asyncio
import dataclasses
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import and_, exists, false, func, literal, null, or_, select, true
from sqlalchemy.exc import IntegrityError

from homebase.contacts import service as contacts_service
from homebase.db.sqlite import off_loop
from homebase.db.tenancy import TenantSession
from homebase.imports import repository, row_files, rows
from homebase.imports.schemas import ImportMatchKey, ImportObject, ImportStatus, InvalidCell
from homebase.runtime import Runtime
from homebase.worker import queue
from homebase.workspaces.lead_policy import phone_region

KIND = "imports"
CONCURRENCY = 2  # imports running at once per worker process (each in its own workspace)
LEASE_SECONDS = 60  # renewed by every batch; a batch takes well under a second
MAX_ATTEMPTS = 5
# Rows per transaction: contacts are written in a few statements per batch (500 cost less
# CPU per row than 250, each batch still well within the write timeout; docs/performance.md,
# "Bulk imports"); a lead is the POST /v1/leads service, several statements per row.
BATCH = {ImportObject.CONTACTS: 500, ImportObject.LEADS: 50}
GAVE_UP = "the import could not be finished after several attempts"
NO_ROWS_FILE = (
    "the import's rows file is not in HOMEBASE_STORAGE_DIR (every instance and worker "
    "must share that folder)"
)
DAMAGED_ROWS_FILE = "the import's rows file holds fewer rows than the import"
UNFINISHED = (ImportStatus.QUEUED.value, ImportStatus.RUNNING.value)
SWEEP_IDS = 500  # import ids a sweep asks about in one statement
# PostgreSQL's planner without bitmap scans for the rest of a contacts batch's transaction
# (set_config's is_local): a GIN index is read only through one, so the match lookups
# (rows.py, _LOOKUPS) are answered by the (workspace_id, column) btrees and never by the
# search's trigram GIN indexes, which answer `=` too and which the planner took on fresh
# statistics for a list of known values, seconds a batch (docs/performance.md, "Bulk
# imports"). Whatever else a batch reads is a few rows by a btree.
NO_BITMAP_SCANS = select(func.set_config("enable_bitmapscan", "off", true()))

imports = repository.imports
LEASE = queue.Lease(
    imports,
    token=imports.c.lease_token,
    expires=imports.c.lease_expires_at,
    attempts=imports.c.attempts,
)
log = logging.getLogger("homebase.imports")
_running = imports.alias("running_import")
# A dry run writes no record: it neither waits for the workspace's running import nor
# holds up the next one.
_BUSY = exists(
    select(_running.c.id).where(
        _running.c.workspace_id == imports.c.workspace_id,
        _running.c.status == ImportStatus.RUNNING.value,
        _running.c.dry_run.is_(false()),
    )
)


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    import_id: str
    token: str
    actor: str  # the requester's credential id: the actor of what the import writes


class LeaseLost(Exception):
    """The import was claimed again (this worker's lease lapsed): the batch rolls back."""


async def run(runtime: Runtime) -> int:
    return await runtime.background.claim_and_start(
        KIND, CONCURRENCY, lambda room: claim(runtime, room), lambda one: process(runtime, one)
    )


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    """Up to `limit` imports, at most one per workspace: a running import whose lease
    lapsed (its worker died) first, else the workspace's oldest queued one when none of
    its imports runs. One that lapsed MAX_ATTEMPTS times is failed instead."""
    now = runtime.clock()
    try:
        return await _claim(runtime, limit, now)
    except IntegrityError:
        # Another worker started an import of the same workspace meanwhile (the unique
        # index on running imports): nothing was claimed; the next round tries again.
        return []


async def _claim(runtime: Runtime, limit: int, now: datetime) -> list[Claim]:
    due = (
        select(
            imports.c.id,
            imports.c.workspace_id,
            imports.c.credential_id,
            imports.c.status,
            imports.c.attempts,
            imports.c.options,
        )
        .where(
            or_(
                and_(
                    imports.c.status == ImportStatus.QUEUED.value,
                    or_(imports.c.dry_run.is_(true()), ~_BUSY),
                ),
                and_(imports.c.status == ImportStatus.RUNNING.value, LEASE.expired(now)),
            )
        )
        .order_by(imports.c.status.desc(), imports.c.id)  # running (lapsed) first
        .limit(limit + 8)  # room for several of one workspace, of which one is taken
    )
    given_up: list[str | None] = []
    async with runtime.db.transaction() as connection:
        found = await queue.take(connection, due)
        chosen: dict[str, Any] = {}  # workspace -> the queue's row of its import (worker/queue.py)
        for row in found:
            if row["workspace_id"] in chosen:
                continue
            if row["attempts"] >= MAX_ATTEMPTS:
                session = TenantSession(connection, row["workspace_id"], clock=runtime.clock)
                await _give_up(session, row["id"], now)
                given_up.append(row["options"].get("rows_file"))
                continue
            if len(chosen) < limit:
                chosen[row["workspace_id"]] = row
        tokens = await LEASE.grant(
            connection,
            [row["id"] for row in chosen.values()],
            now + timedelta(seconds=LEASE_SECONDS),
            status=ImportStatus.RUNNING.value,
            # A resumed import keeps the time it first started.
            started_at=func.coalesce(imports.c.started_at, literal(now, imports.c.started_at.type)),
            updated_at=now,
        )
    for file_name in given_up:  # committed: a failed import keeps no rows
        if file_name is not None:
            await asyncio.to_thread(row_files.remove, runtime.settings.storage_dir, file_name)
    return [
        Claim(row["workspace_id"], row["id"], tokens[row["id"]], row["credential_id"])
        for row in chosen.values()
    ]


async def _give_up(session: TenantSession, import_id: str, now: datetime) -> None:
    await session.execute(
        session.update(imports)
        .where(imports.c.id == import_id)
        .values(
            status=ImportStatus.FAILED.value,
            error=GAVE_UP,
            payload=null(),
            finished_at=now,
            updated_at=now,
            **LEASE.released,
        )
    )


@dataclass
class Running:
    """A claimed import: its rows read once for all its batches (`payload`), or a batch
    at a time from its rows file (`rows_file`).

    A rows file is read and overwritten on threads. Awaited where the batch needs it,
    each hop gave the event loop to whatever else was ready (an in-process worker's
    other jobs, requests) and the import waited for its turn back, ten times an import:
    the CSV import took longer than the JSON one of the same rows (docs/performance.md,
    "Bulk imports"). So the next batch is read while this one is written (`_ahead`),
    and a committed batch is overwritten while the import goes on (`_forgetting`,
    awaited before the next overwrite, the file's removal and the import's end)."""

    claim: Claim
    kind: ImportObject
    match_on: list[ImportMatchKey]
    skip_routing: bool
    payload: list[Any] | None
    rows_file: row_files.RowsFile | None
    row_count: int
    position: int
    options: rows.RowOptions = field(default_factory=rows.RowOptions)
    dry_run: bool = False
    # a dry run's contacts as they would be (none is written), for its whole import
    matches: rows.Matches = field(default_factory=rows.Matches)
    # the import's as committed: each batch writes it with its own added
    refused_by_reason: dict[str, int] = field(default_factory=dict)
    first_touch: bool = False  # leads: queue the AI's first texts (ai/outreach.py)
    _ahead: "asyncio.Task[row_files.Batch] | None" = None
    _forgetting: "asyncio.Task[None] | None" = None

    @property
    def done(self) -> bool:
        return self.position >= self.row_count

    async def batch(self) -> row_files.Batch:
        """The next batch: its rows, and each one's CSV line (None: rows sent as JSON)."""
        start, size = self.position, BATCH[self.kind]
        if self.rows_file is None:
            assert self.payload is not None  # load() gives one or the other
            found = self.payload[start : start + size]
            return row_files.Batch([None] * len(found), found, (0, 0))
        reading, self._ahead = self._ahead or self._read(start), None
        batch = await reading
        if len(batch.rows) < min(size, self.row_count - start):
            raise row_files.RowsFileDamaged(self.rows_file.path)
        if start + size < self.row_count:
            self._ahead = self._read(start + size)
        return batch

    def _read(self, start: int) -> "asyncio.Task[row_files.Batch]":
        assert self.rows_file is not None
        read = asyncio.to_thread(self.rows_file.read_lines, start, BATCH[self.kind])
        return asyncio.get_running_loop().create_task(read)

    async def written(self, batch: row_files.Batch) -> None:
        """After the batch's commit: its rows leave the rows file (the whole file, after
        the last batch)."""
        if self.rows_file is None:
            return
        await self.settle()
        if self.done:
            await asyncio.to_thread(self.rows_file.path.unlink, missing_ok=True)
        else:
            forget = asyncio.to_thread(self.rows_file.forget, batch.span)
            self._forgetting = asyncio.get_running_loop().create_task(forget)

    async def settle(self) -> None:
        """Waits for the last committed batch's overwrite (raising its error)."""
        forgetting, self._forgetting = self._forgetting, None
        if forgetting is not None:
            await forgetting

    async def close(self) -> None:
        """Waits for the read and the overwrite under way, whatever they raise (the
        import stops here: a later claim reads on from the committed position)."""
        tasks = [task for task in (self._ahead, self._forgetting) if task is not None]
        self._ahead = self._forgetting = None
        await asyncio.gather(*tasks, return_exceptions=True)


async def load(runtime: Runtime, claimed: Claim) -> Running | None:
    """The claimed import with its rows, or None if it is no longer this claim's."""
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        job = await session.fetch_one(
            session.select(imports).where(
                imports.c.id == claimed.import_id, LEASE.token == claimed.token
            )
        )
    if job is None:
        return None
    options = job["options"]
    file_name = options.get("rows_file")
    rows_file = None
    if file_name is not None:
        root = runtime.settings.storage_dir
        rows_file = row_files.RowsFile(row_files.path_of(root, file_name))
        if not await asyncio.to_thread(rows_file.exists):
            await _fail(runtime, claimed, NO_ROWS_FILE)
            return None
        if job["position"]:  # resumed: rows an earlier claim wrote leave the file first
            await asyncio.to_thread(rows_file.forget_before, job["position"])
    elif job["payload"] is None:
        return None
    return Running(
        claimed,
        ImportObject(job["object"]),
        [ImportMatchKey(key) for key in options["match_on"]],
        bool(options["skip_routing"]),
        job["payload"],
        rows_file,
        job["row_count"],
        job["position"],
        rows.RowOptions(
            value_map=options.get("value_map") or {},
            skip=options.get("on_invalid_cell") == InvalidCell.SKIP.value,
        ),
        bool(job["dry_run"]),
        refused_by_reason=job["refused_by_reason"],
        first_touch=bool(options.get("first_touch")),
    )


async def _fail(runtime: Runtime, claimed: Claim, error: str) -> None:
    """The import failed at once (while this claim holds it), with `error`."""
    log.error("import %s failed: %s", claimed.import_id, error)
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        now = session.now()
        statement = (
            session.update(imports)
            .where(imports.c.id == claimed.import_id)
            .values(
                status=ImportStatus.FAILED.value,
                error=error,
                payload=null(),
                finished_at=now,
                updated_at=now,
                **LEASE.released,
            )
        )
        await session.execute(LEASE.held(statement, claimed.token))
        session.mark_work()  # the workspace's next import starts at once


async def process(runtime: Runtime, claimed: Claim) -> None:
    """Every remaining batch of a claimed import (in the background)."""
    running = None
    damaged: Path | None = None  # the rows file of an import failed for it
    try:
        running = await load(runtime, claimed)
        while running is not None and not running.done:
            await step(runtime, running)
            await asyncio.sleep(0)  # other writers between batches
    except LeaseLost:
        log.warning("import %s was claimed again; this worker stops", claimed.import_id)
    except row_files.RowsFileDamaged as error:
        await _fail(runtime, claimed, DAMAGED_ROWS_FILE)
        damaged = error.path
    except Exception:  # noqa: BLE001 (its lease lapses and a later claim resumes it)
        log.exception(
            "import %s failed; it resumes from its last batch when its lease lapses",
            claimed.import_id,
        )
    finally:
        if running is not None:
            await running.close()  # its threads done with the file before it goes
    if damaged is not None:
        await asyncio.to_thread(damaged.unlink, missing_ok=True)  # failed: no file kept


async def step(runtime: Runtime, running: Running) -> None:
    """One batch, in one write transaction with the job's new position and counts; then
    its rows leave the rows file (the whole file, after the last batch)."""
    start = running.position
    batch = await running.batch()
    end = start + len(batch.rows)
    # On SQLite the driver runs statements inline on the event loop; a batch's multi-row
    # INSERTs take milliseconds each, so they go to the connection's thread, and the loop
    # serves requests meanwhile (an in-process worker shares it with them).
    tally = rows.Tally(start, batch.lines)
    with off_loop():
        running.refused_by_reason = await _write_batch(runtime, running, tally, batch.rows, end)
    running.position = end
    await running.written(batch)


def _with_batch(running: Running, tally: rows.Tally) -> dict[str, int]:
    """The import's refused rows by reason with the batch's."""
    found = dict(running.refused_by_reason)
    for reason, count in tally.refused_by_reason.items():
        found[reason] = found.get(reason, 0) + count
    return found


async def _write_batch(
    runtime: Runtime, running: Running, tally: rows.Tally, batch: list[Any], end: int
) -> dict[str, int]:
    """Writes the batch and the job's new position, counts and refused rows by reason
    (returned, as committed)."""
    start = tally.start
    claimed = running.claim
    async with runtime.db.transaction() as connection:
        if running.kind is ImportObject.CONTACTS and connection.dialect.name == "postgresql":
            await connection.execute(NO_BITMAP_SCANS)
        session = TenantSession(
            connection, claimed.workspace_id, clock=runtime.clock, actor=claimed.actor
        )
        # Read in the batch's transaction: a field deleted meanwhile refuses its values.
        fields = await contacts_service.definitions(session)
        region = await phone_region(session)  # numbers without a country code read in it
        options = dataclasses.replace(running.options, region=region)
        checked = await rows.check(session, running.kind, batch, fields, options)
        dry_run = running.dry_run
        if running.kind is ImportObject.CONTACTS:
            matches = running.matches if dry_run else None
            await rows.apply_contacts(
                session,
                tally,
                checked,
                running.match_on,
                fields,
                dry_run=dry_run,
                matches=matches,
                region=region,
            )
        else:
            await rows.apply_leads(
                session,
                tally,
                checked,
                running.skip_routing,
                dry_run=dry_run,
                first_touch_per_minute=(
                    runtime.settings.ai_first_touch_per_minute if running.first_touch else None
                ),
            )
        if tally.errors:
            await repository.insert_errors(session, claimed.import_id, tally.errors)
        now = session.now()
        reasons = _with_batch(running, tally)
        # column values and SQL expressions (a count plus the batch's)
        values: dict[str, Any] = {
            "position": end,
            "created_count": imports.c.created_count + tally.created,
            "updated_count": imports.c.updated_count + tally.updated,
            "unchanged_count": imports.c.unchanged_count + tally.unchanged,
            "failed_count": imports.c.failed_count + tally.failed,
            "warnings_count": imports.c.warnings_count + tally.warnings,
            "unmatchable_count": imports.c.unmatchable_count + tally.unmatchable,
            # the batch's update is held to the position it started from, so the
            # import's reasons are the committed ones Running carries
            "refused_by_reason": reasons,
            "updated_at": now,
            "lease_expires_at": now + timedelta(seconds=LEASE_SECONDS),
        }
        if end >= running.row_count:
            session.mark_work()  # the workspace's next import starts at once, not next poll
            values.update(
                status=ImportStatus.COMPLETED.value,
                finished_at=now,
                payload=null(),  # SQL NULL: the rows' personal data is not kept once written
                **LEASE.released,
            )
        statement = session.update(imports).where(
            imports.c.id == claimed.import_id, imports.c.position == start
        )
        if not await session.execute(LEASE.held(statement, claimed.token).values(**values)):
            raise LeaseLost()  # rolls the batch back: whoever holds it now writes these rows
    return reasons


async def remove_orphaned_rows(runtime: Runtime) -> int:
    """Deletes the rows files older than row_files.MAX_AGE (an hour) whose import is not
    queued or running (run by exports.expire with the uploads' sweep): a submit that died
    between writing them and committing its imports, or a worker that died after an
    import's last batch.
    A listing of the folder, and a read only when it holds such old files. Returns how
    many were removed."""
    root = runtime.settings.storage_dir
    found = await asyncio.to_thread(row_files.aged, root, runtime.clock())
    alive: set[tuple[str, str]] = set()
    for first in range(0, len(found), SWEEP_IDS):
        ids = [import_id for _, _, import_id in found[first : first + SWEEP_IDS]]
        async with runtime.db.transaction(write=False) as connection:
            result = await connection.execute(
                select(imports.c.workspace_id, imports.c.id).where(
                    imports.c.id.in_(ids), imports.c.status.in_(UNFINISHED)
                )
            )
            alive.update((row[0], row[1]) for row in result.all())
    gone = [
        path for path, workspace_id, import_id in found if (workspace_id, import_id) not in alive
    ]
    await asyncio.to_thread(row_files.remove_all, gone)
    return len(gone)
