"""Open tasks in the console, the AI's first (its handoffs: a person must take the
conversation over), then by due time, those with none last; 50 a page
(tasks/repository.open_queue). Each can be completed or given to another current member,
through tasks/service.py (complete_task, reassign_task): a task no longer open is a 409
page, another workspace's a 404, a member who is not a current member of the workspace a
400 naming assignee_id."""

from datetime import datetime

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import (
    PAGE_SIZE,
    field,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.people import owner_names
from homebase.console.sessions import Member
from homebase.contacts import repository as contacts
from homebase.db.tenancy import TenantSession
from homebase.http.pages import ConsolePageError
from homebase.kit.errors import ApiError, NotFound
from homebase.kit.pagination import decode_cursor, encode_cursor, list_key
from homebase.members import repository as members
from homebase.runtime import get_runtime
from homebase.tasks import repository, service
from homebase.tasks.records import TaskRecord
from homebase.tasks.repository import QueuePosition, queue_position

router = APIRouter(include_in_schema=False)
PATH = "/console/tasks"
NOTICES = {"completed": "The task is done.", "reassigned": "The task was reassigned."}
_SEPARATOR = "|"


def _encoded(position: QueuePosition) -> str:
    rank, due, task_id = position
    return _SEPARATOR.join((str(rank), due.isoformat(), task_id))


def _decoded(text: str | None) -> QueuePosition | None:
    """A signed cursor's position; None (the first page) for one that does not read."""
    parts = (text or "").split(_SEPARATOR)
    if len(parts) != 3 or parts[0] not in ("0", "1"):
        return None
    try:
        due = datetime.fromisoformat(parts[1])
    except ValueError:
        return None
    return int(parts[0]), due, parts[2]


async def _queue(request: Request, session: TenantSession) -> tuple[list[TaskRecord], str | None]:
    keys = get_runtime(request).settings.keys
    key = list_key(session.workspace_id, PATH, {})
    after = _decoded(decode_cursor(keys, key, request.query_params.get("cursor")))
    rows = await repository.open_queue(session, after, PAGE_SIZE + 1)
    older = None
    if len(rows) > PAGE_SIZE:
        rows = rows[:PAGE_SIZE]
        older = f"{PATH}?cursor=" + encode_cursor(keys, key, _encoded(queue_position(rows[-1])))
    return rows, older


async def tasks_page(
    request: Request, member: Member, *, status: int = 200, errors: list[str] | None = None
) -> Response:
    async with member_session(request, member) as session:
        tasks, older = await _queue(request, session)
        roster = await members.roster(session)
        named = await contacts.names_of(
            session, {task["contact_id"] for task in tasks if task["contact_id"]}
        )
    done = request.query_params.get("done", "")
    return member_page(
        request,
        member,
        "console/tasks.html",
        status,
        tasks=tasks,
        contact_names=named,
        assignees=owner_names(roster),
        older=older,
        members=[row for row in roster if row["removed_at"] is None],
        notice=NOTICES.get(done),
        errors=errors or [],
    )


@router.get(PATH)
async def list_tasks(request: Request) -> Response:
    return await tasks_page(request, await signed_in(request))


async def _change(request: Request, task_id: str, done: str) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            if done == "completed":
                await service.complete_task(session, task_id)
            else:
                assignee = field(form, "assignee_id")
                await service.reassign_task(session, task_id, assignee_id=assignee)
    except NotFound as missing:
        raise ConsolePageError(404, "Not found", missing.message) from None
    except ApiError as refused:  # 409: no longer open; 400: not a current member
        return await tasks_page(request, member, status=refused.status, errors=[refused.message])
    return see_other(f"{PATH}?done={done}")


@router.post(PATH + "/{task_id}/complete")
async def complete_task(request: Request, task_id: str) -> Response:
    return await _change(request, task_id, "completed")


@router.post(PATH + "/{task_id}/reassign")
async def reassign_task(request: Request, task_id: str) -> Response:
    return await _change(request, task_id, "reassigned")
