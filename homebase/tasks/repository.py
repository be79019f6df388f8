"""Task queries. Every statement starts from the TenantSession."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import Integer, bindparam, case, func, literal, tuple_

from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.statements import AnySelect
from homebase.models import Contact, Task, TaskDedupe
from homebase.paging.listing import Listing
from homebase.tasks.records import TaskChanges, TaskDue, TaskRecord
from homebase.tasks.schemas import TaskFilters

tasks = Task.__table__
claims = TaskDedupe.__table__
contacts = Contact.__table__


async def get(session: TenantSession, task_id: str) -> TaskRecord | None:
    row = await session.fetch_one(session.select(tasks).where(tasks.c.id == task_id))
    return cast("TaskRecord | None", row)


def filtered(session: TenantSession, filters: TaskFilters) -> AnySelect:
    """The list's select with its filters (updated_after aside: paging/changes.py)."""
    statement = session.select(tasks)
    for name in ("contact_id", "assignee_id"):
        value = getattr(filters, name)
        if value is not None:
            statement = statement.where(tasks.c[name] == value)
    if filters.status is not None:
        statement = statement.where(tasks.c.status == filters.status.value)
    if filters.due_before is not None:
        statement = statement.where(tasks.c.due_at < filters.due_before)
    return statement


def listing(session: TenantSession, filters: TaskFilters) -> Listing[TaskRecord]:
    """GET /v1/tasks: newest first, and its `updated_after` walk (paging/listing.py)."""
    return Listing.synced(filtered(session, filters), tasks, session.dialect)


# The open tasks a manager works through (the console's Tasks page): the AI's first
# (source ai: its handoffs and follow-ups), then by due time, those with none last, then
# by id. A position is (rank, due or NO_DUE, id), compared as a row value on both
# databases, so a page is a keyset page like any other.
NO_DUE = datetime(9999, 12, 31, tzinfo=UTC)
_RANK = case((tasks.c.source == "ai", 0), else_=1)
_DUE = func.coalesce(tasks.c.due_at, bindparam("no_due", NO_DUE, type_=tasks.c.due_at.type))
QueuePosition = tuple[int, datetime, str]


def queue_position(row: TaskRecord) -> QueuePosition:
    return (0 if row["source"] == "ai" else 1, row["due_at"] or NO_DUE, row["id"])


async def open_queue(
    session: TenantSession, after: QueuePosition | None, limit: int
) -> list[TaskRecord]:
    """Up to `limit` open tasks in queue order (above), after `after` when given."""
    statement = session.select(tasks).where(tasks.c.status == "open")
    if after is not None:
        rank, due, task_id = after
        statement = statement.where(
            tuple_(_RANK, _DUE, tasks.c.id)
            > tuple_(
                literal(rank, Integer()),
                literal(due, tasks.c.due_at.type),
                literal(task_id, tasks.c.id.type),
            )
        )
    statement = statement.order_by(_RANK, _DUE, tasks.c.id).limit(limit)
    return cast("list[TaskRecord]", await session.fetch_all(statement))


async def set_open_task(session: TenantSession, task_id: str, values: TaskChanges) -> bool:
    """Writes `values` into the task only while it is open: of two at the same moment,
    one changes it (True) and the other finds it done (False)."""
    statement = session.update(tasks).where(tasks.c.id == task_id, tasks.c.status == "open")
    return bool(await session.execute(statement.values(**values)))


async def insert(session: TenantSession, row: TaskRecord) -> None:
    await session.insert(tasks, row)


async def unassign_open(session: TenantSession, assignee_id: str, now: datetime) -> int:
    """The member's open tasks lose their assignee (a removed member); done and cancelled
    ones keep it, as the record of who did them. Returns how many changed."""
    return await session.execute(
        session.update(tasks)
        .where(tasks.c.assignee_id == assignee_id, tasks.c.status == "open")
        .values(assignee_id=None, updated_at=now)
    )


async def claim(
    session: TenantSession, dedupe_key: str, task_id: str, *, now: datetime, expires_at: datetime
) -> str:
    """The id of the task that holds this key after the call: `task_id` when the key was
    free or its claim had expired, else the live holder's.

    One atomic statement: insert, or take over a claim only once expired. On PostgreSQL a
    concurrent claimer waits on the row lock and then sees the winner's unexpired claim;
    on SQLite writers are serialized by BEGIN IMMEDIATE.
    """
    held = {"task_id": task_id, "expires_at": expires_at}
    if await session.upsert(
        claims,
        {"dedupe_key": dedupe_key, **held},
        conflict=["workspace_id", "dedupe_key"],
        set_=held,
        where=claims.c.expires_at <= now,
    ):
        return task_id
    holder = await session.fetch_one(
        session.select(claims, claims.c.task_id).where(claims.c.dedupe_key == dedupe_key)
    )
    if holder is None:  # never: the insert lost to this very row, in this transaction
        raise LookupError(f"no claim holds {dedupe_key!r}")
    holding: str = holder["task_id"]
    return holding


async def get_contact(session: TenantSession, contact_id: str) -> ContactRecord | None:
    row = await session.fetch_one(session.select(contacts).where(contacts.c.id == contact_id))
    return cast("ContactRecord | None", row)


async def scrub_for_contact(
    session: TenantSession, contact_id: str, redacted: str, rekey: Callable[[TaskDue], str]
) -> None:
    """Titles (`Call {full_name}`) become `redacted`, notes go; status, times and links
    stay. Each task's dedupe key, a hash of its old title, becomes `rekey(row)` (the hash of
    what the row now holds), and a claim still held by one of these tasks is dropped."""
    found = await session.fetch_all(
        session.select(tasks, tasks.c.id, tasks.c.assignee_id, tasks.c.due_at).where(
            tasks.c.contact_id == contact_id
        )
    )
    rows = cast("list[TaskDue]", found)
    now = session.now()
    for row in rows:
        await session.execute(
            session.update(tasks)
            .where(tasks.c.id == row["id"])
            .values(title=redacted, notes=None, dedupe_key=rekey(row), updated_at=now)
        )
    if rows:
        await session.execute(
            session.delete(claims).where(claims.c.task_id.in_([row["id"] for row in rows]))
        )
