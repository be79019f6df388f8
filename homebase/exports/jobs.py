"""The export jobs (docs/imports-exports.md).

`run` claims queued exports on the leased queue (worker/queue.py) and writes each in the
background (worker/background.py), so a round never waits for a million rows: webhook
deliveries and sends go on meanwhile. A claim, each lease renewal and the finish are the
only write transactions, each a single short statement or two (db/settle.py rolls back
a write transaction over HOMEBASE_DATABASE_WRITE_TIMEOUT_SECONDS).

Writing reads the list a batch at a time as the list is walked (exports/objects.read:
newest first by id, or with `updated_after` the list's walk of changes, oldest change
first, each batch at its own settle horizon), each batch its own statement on a read
connection (no transaction is held across the read, as TenantSession.stream reads),
renders the batch with the list's own render function and appends it to a `.part` file
(exports/files.py), so memory stays flat whatever the size. The whole file is renamed
into place, then recorded, fenced by the lease token: a worker that lost its lease (it
stalled past it, or an erasure took it back) records nothing and removes its file. A
worker that dies mid-file leaves its lease to lapse; the export is claimed again and
written from scratch (the dead run's partial file removed first), so no partial file is
ever served; a whole file whose run died before recording it goes when the export
expires. After MAX_ATTEMPTS claims it is failed.

`expire` removes files: those of completed exports past their expiry (7 days), and
those an erasure marked (exports/service.scrub_contact_exports), marking each row first
so the file is never served while it goes; and the console's CSV uploads abandoned for an
hour (imports/uploads.py) and the rows files no import owns any more
(imports/row_files.py), which sit in the same storage folder.
"""

import asyncio
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.db import settle
from homebase.db.sqlite import off_loop
from homebase.db.tenancy import TenantSession
from homebase.exports import files
from homebase.exports.objects import OBJECTS, After, Exportable, Render, read
from homebase.exports.service import FILE_RETENTION
from homebase.imports import jobs as import_jobs
from homebase.imports import uploads
from homebase.kit import logs
from homebase.kit.fields import Projection, projection, selection
from homebase.kit.statements import AnySelect
from homebase.models import Export
from homebase.runtime import Runtime
from homebase.worker import queue

exports = Export.__table__
KIND = "exports"
CONCURRENCY = 2  # exports written at once per worker process
BATCH = 1000  # rows read, rendered and written at a time
LEASE_SECONDS = 60.0
RENEW_SECONDS = 15.0  # a running export's lease is renewed this often
MAX_ATTEMPTS = 3
EXPIRE_BATCH = 100
FAILED = "The export could not be written; ask for it again."
log = logging.getLogger("homebase.exports")
LEASE = queue.Lease(
    exports,
    token=exports.c.lease_token,
    expires=exports.c.lease_expires_at,
    attempts=exports.c.attempts,
)


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    export_id: str
    token: str
    row: dict[str, Any]


async def run(runtime: Runtime) -> int:
    return await runtime.background.claim_and_start(
        KIND, CONCURRENCY, lambda room: claim(runtime, room), lambda one: produce(runtime, one)
    )


async def claim(runtime: Runtime, limit: int) -> list[Claim]:
    """Queued exports, and running ones whose worker's lease lapsed (it died): leased,
    running. One that has used its attempts is failed instead."""
    now = runtime.clock()
    until = now + timedelta(seconds=LEASE_SECONDS)
    due_condition = or_(
        exports.c.status == "queued",
        and_(exports.c.status == "running", LEASE.expired(now)),
    )
    async with runtime.db.transaction() as connection:

        async def fail_the_spent(due: Sequence[RowMapping]) -> list[RowMapping]:
            spent = [row["id"] for row in due if row["attempts"] >= MAX_ATTEMPTS]
            if spent:
                await connection.execute(
                    update(exports)
                    .where(exports.c.id.in_(spent))
                    .values(status="failed", failure_reason=FAILED, finished_at=now, updated_at=now)
                    .values(LEASE.released)
                )
            return [row for row in due if row["attempts"] < MAX_ATTEMPTS]

        claimed = await LEASE.claim(
            connection,
            select(exports).where(due_condition).order_by(exports.c.id).limit(limit),
            until,
            choose=fail_the_spent,
            status="running",
            rows=0,
            started_at=now,
            updated_at=now,
        )
    return [Claim(row["workspace_id"], row["id"], token, dict(row)) for row, token in claimed]


async def _fenced(runtime: Runtime, claimed: Claim, **values: Any) -> bool:
    """Changes the export only while this claim still holds its lease and it runs."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
        statement = session.update(exports).where(
            exports.c.id == claimed.export_id, exports.c.status == "running"
        )
        changes = {"updated_at": session.now(), **values}
        return bool(await session.execute(LEASE.held(statement, claimed.token).values(changes)))


async def produce(runtime: Runtime, claimed: Claim) -> None:
    """Writes the export's file and records it; see the module's docstring."""
    root = runtime.settings.storage_dir
    row = claimed.row
    name = files.final_name(claimed.workspace_id, claimed.export_id, claimed.token, row["format"])
    final = files.path_of(root, name)
    if final is None:  # ids and tokens never hold a path separator; a guard all the same
        await _fenced(runtime, claimed, status="failed", failure_reason=FAILED, **LEASE.released)
        return
    part = final.with_name(final.name + files.PART)
    # Still ours? A run started late (its worker stalled past the lease) must not touch
    # the files of the run that took over.
    until = runtime.clock() + timedelta(seconds=LEASE_SECONDS)
    if not await _fenced(runtime, claimed, lease_expires_at=until):
        return
    try:
        await asyncio.to_thread(files.remove_runs, root, claimed.workspace_id, claimed.export_id)
        rows = await _write(runtime, claimed, OBJECTS[row["object"]], part)
        if rows is None:  # the lease was lost: another run, or an erasure, took it over
            await asyncio.to_thread(part.unlink, missing_ok=True)
            return
        await asyncio.to_thread(os.replace, part, final)
        now = runtime.clock()
        finished = await _fenced(
            runtime,
            claimed,
            status="completed",
            rows=rows,
            file_name=name,
            finished_at=now,
            expires_at=now + FILE_RETENTION,
            **LEASE.released,
        )
        if not finished:
            await asyncio.to_thread(final.unlink, missing_ok=True)
            return
        logs.event(
            log,
            "export completed",
            export_id=claimed.export_id,
            workspace_id=claimed.workspace_id,
            object=row["object"],
            format=row["format"],
            rows=rows,
        )
    except Exception:
        log.exception("export %s failed", claimed.export_id)
        await asyncio.to_thread(part.unlink, missing_ok=True)
        # Queued again while attempts remain (claim fails it after the last).
        await _fenced(runtime, claimed, status="queued", rows=0, **LEASE.released)


async def _write(runtime: Runtime, claimed: Claim, item: Exportable, part: Path) -> int | None:
    """Rows written to `part`, or None when the lease was lost midway."""
    row = claimed.row
    filters = item.filters.model_validate(row["filters"])
    allowed = frozenset(item.columns)
    keep = selection(allowed, row["fields"], location="body")
    project = projection(allowed, row["fields"], location="body")
    columns = tuple(name for name in item.columns if keep is None or name in keep)
    writer = await asyncio.to_thread(files.Writer, part, row["format"], columns)
    render: Render | None = None
    renewed = runtime.clock()
    after: After | None = None
    settle_seconds = runtime.settings.sync_settle_seconds
    try:
        while True:
            async with runtime.db.transaction(write=False) as connection:
                session = TenantSession(connection, claimed.workspace_id, clock=runtime.clock)
                if render is None:
                    render = _projected(await item.render(session, row["pii"]), project, keep)
                # Each batch takes its settle horizon when it reads, as a list page does.
                horizon = settle.horizon(runtime.clock(), settle_seconds)
                with off_loop():  # a batch can take a while on SQLite: off the event loop
                    rows, after = await read(
                        item, session, filters, row["pii"], after, BATCH, horizon
                    )
            more = len(rows) > BATCH
            batch = rows[:BATCH]
            if batch:
                await asyncio.to_thread(writer.write, batch, render)
            if not more:
                return writer.rows
            now = runtime.clock()
            if (now - renewed).total_seconds() >= RENEW_SECONDS:
                until = now + timedelta(seconds=LEASE_SECONDS)
                if not await _fenced(runtime, claimed, lease_expires_at=until, rows=writer.rows):
                    return None
                renewed = now
    finally:
        await asyncio.to_thread(writer.close)


def _projected(render: Render, project: Projection, keep: frozenset[str] | None) -> Render:
    if keep is None:
        return render
    return lambda row: project(render(row))


async def expire(runtime: Runtime) -> int:
    """Removes the files of exports past their expiry and of those an erasure expired:
    each row is marked expired first (its download refused from then on), the file
    removed, then the row forgets it; and the CSV uploads older than an hour, and the
    imports' rows files an hour old that no unfinished import owns. Returns the
    files removed."""
    now = runtime.clock()
    root = runtime.settings.storage_dir
    # A directory listing, no database: cheap enough for every round.
    swept = await asyncio.to_thread(uploads.remove_abandoned, root, now)
    swept += await import_jobs.remove_orphaned_rows(runtime)
    past = exports.c.status == "completed", exports.c.expires_at <= now
    marked = exports.c.status == "expired", exports.c.file_name.is_not(None)
    # Reads first: the write transaction is taken only when there is something to do.
    async with runtime.db.transaction(write=False) as connection:
        due = await _ids(connection, select(exports.c.id).where(*past).limit(EXPIRE_BATCH))
    if due:
        async with runtime.db.transaction() as connection:
            await connection.execute(
                update(exports)
                .where(exports.c.id.in_(due), *past)
                .values(status="expired", updated_at=now)
            )
    async with runtime.db.transaction(write=False) as connection:
        result = await connection.execute(
            select(exports.c.id, exports.c.workspace_id, exports.c.file_name)
            .where(*marked)
            .limit(EXPIRE_BATCH)
        )
        gone = [dict(found) for found in result.mappings().all()]
    for found in gone:
        await asyncio.to_thread(files.remove, root, found["file_name"])
        await asyncio.to_thread(
            files.remove_runs, root, found["workspace_id"], found["id"], finished=True
        )
    if gone:
        async with runtime.db.transaction() as connection:
            for found in gone:
                await connection.execute(
                    update(exports)
                    .where(
                        exports.c.id == found["id"],
                        exports.c.status == "expired",
                        exports.c.file_name == found["file_name"],
                    )
                    .values(file_name=None, updated_at=now)
                )
    return len(gone) + swept


async def _ids(connection: AsyncConnection, statement: AnySelect) -> list[str]:
    return [found[0] for found in (await connection.execute(statement)).all()]
