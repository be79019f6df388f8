"""The task rules: a task names this workspace's contact and member, and an identical
task created again within the dedupe window is the same task (docs/automations.md)."""

import hashlib
from datetime import UTC, datetime, timedelta

from homebase.contacts import timeline
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import Conflict, NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.outbox.redaction import REDACTED
from homebase.tasks import repository
from homebase.tasks.records import TaskChanges, TaskRecord
from homebase.tasks.schemas import TaskCreate
from homebase.workspaces import references

DEDUPE_WINDOW = timedelta(seconds=60)


async def get_or_404(session: TenantSession, task_id: str) -> TaskRecord:
    row = await repository.get(session, task_id)
    if row is None:
        raise NotFound("No such task.")
    return row


def dedupe_key(
    title: str, contact_id: str | None, *, assignee_id: str | None, due_at: datetime | None
) -> str:
    """What makes two tasks identical: the title (whitespace collapsed, case kept), the
    contact, the assignee and the due moment (to the second, in UTC)."""
    due = due_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if due_at else ""
    parts = [" ".join(title.split()), contact_id or "", assignee_id or "", due]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


async def check_references(
    session: TenantSession, contact_id: str | None, *, assignee_id: str | None
) -> None:
    """Both failures at once; another workspace's id reads like an unknown one."""
    errors = []
    if contact_id is not None and (
        refusal := await references.contact_refusal(session, contact_id)
    ):
        errors.append(("contact_id", refusal))
    if assignee_id is not None and not await references.member_exists(session, assignee_id):
        errors.append(("assignee_id", "is not a member of this workspace"))
    if errors:
        raise ValidationFailed.for_fields(errors)


async def create_task(
    session: TenantSession, data: TaskCreate, *, source: str = "api"
) -> tuple[TaskRecord, bool]:
    """(task, created). Not check-then-insert: the claim on the dedupe key is one atomic
    upsert (repository.claim), so concurrent identical creates make one task."""
    await check_references(session, data.contact_id, assignee_id=data.assignee_id)
    now = session.now()
    key = dedupe_key(data.title, data.contact_id, assignee_id=data.assignee_id, due_at=data.due_at)
    task_id = new_id("tsk")
    holder = await repository.claim(session, key, task_id, now=now, expires_at=now + DEDUPE_WINDOW)
    if holder != task_id:
        return await get_or_404(session, holder), False
    row: TaskRecord = {
        "id": task_id,
        "title": data.title,
        "contact_id": data.contact_id,
        "assignee_id": data.assignee_id,
        "due_at": data.due_at,
        "status": data.status.value,
        "notes": data.notes,
        "priority": data.priority.value,
        "source": source,
        "dedupe_key": key,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert(session, row)
    if data.contact_id is not None:
        await timeline.record(
            session,
            data.contact_id,
            "task_created",
            f"Task: {data.title}"[:200],
            data={"task_id": task_id, "assignee_id": data.assignee_id, "source": source},
        )
    return row, True


class TaskNotOpen(Conflict):
    message = "The task is no longer open: it was completed or cancelled."


async def complete_task(session: TenantSession, task_id: str) -> TaskRecord:
    """An open task marked done (the console's Complete); a task already done or
    cancelled is 409, another workspace's 404."""
    row = await get_or_404(session, task_id)
    now = session.now()
    if not await repository.set_open_task(session, task_id, {"status": "done", "updated_at": now}):
        raise TaskNotOpen()
    return {**row, "status": "done", "updated_at": now}


async def reassign_task(session: TenantSession, task_id: str, *, assignee_id: str) -> TaskRecord:
    """An open task given to another current member of the workspace (400 naming
    assignee_id otherwise, as a create's check); its dedupe key follows what it now
    holds. Done and cancelled tasks keep who did them (409)."""
    row = await get_or_404(session, task_id)
    await check_references(session, None, assignee_id=assignee_id)
    now = session.now()
    key = dedupe_key(row["title"], row["contact_id"], assignee_id=assignee_id, due_at=row["due_at"])
    changes: TaskChanges = {"assignee_id": assignee_id, "dedupe_key": key, "updated_at": now}
    if not await repository.set_open_task(session, task_id, changes):
        raise TaskNotOpen()
    return {**row, **changes}


async def scrub_contact_tasks(session: TenantSession, contact_id: str) -> None:
    """An erasure's part of tasks (erasure/registry.py): the contact's tasks keep their
    status, times, assignee and link, and lose their title (REDACTED) and notes: titles
    carry the person's name (an automation's `Call {full_name}`)."""
    await repository.scrub_for_contact(
        session,
        contact_id,
        REDACTED,
        lambda row: dedupe_key(
            REDACTED, contact_id, assignee_id=row["assignee_id"], due_at=row["due_at"]
        ),
    )
