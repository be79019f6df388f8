from typing import Annotated

from fastapi import Depends, Query
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import CHANGES_NOTE, Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond
from homebase.tasks import render, repository, service
from homebase.tasks.schemas import Task, TaskCreate, TaskCreated, TaskFilters

router = v1_router(prefix="/tasks", tags=["tasks"])

TasksRead = Annotated[Principal, require(Scope.appointments_read)]
TasksWrite = Annotated[Principal, require(Scope.appointments_write)]
TaskFields = Annotated[Projection, Depends(field_selector(Task))]
Pages = Annotated[PageRequest, Depends(page_request)]

CREATE_DESCRIPTION = """\
Deduplicated within 60 seconds: the same title (whitespace collapsed), contact_id,
assignee_id and due_at (to the second) sent again while the first task's window is open
answers **200** with `created: false` and that task, instead of creating a second one
(the first create answers **201** with `created: true`). The window runs 60 seconds from
the first task's creation and is enforced atomically in the database, so identical
requests arriving together on several instances still make one task. status and notes
are not part of the comparison.

400 names contact_id or assignee_id when it is not this workspace's contact or member.
"""


@router.get(
    "",
    response_model=Page[Task],
    summary="List tasks",
    description="Newest first. Filters combine with AND." + CHANGES_NOTE,
    responses=error_responses(*READ_ERRORS),
)
async def list_tasks(
    request: Request,
    principal: TasksRead,
    session: Tenant,
    page: Pages,
    fields: TaskFields,
    filters: Annotated[TaskFilters, Query()],
) -> Sent[PageBody[Task]]:
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, filters),
        filters=filters,
        updated_after=filters.updated_after,
        render=render.task,
        fields=fields,
    )


@router.post(
    "",
    status_code=201,
    response_model=TaskCreated,
    summary="Create a follow-up task",
    description=CREATE_DESCRIPTION,
    responses={
        200: {
            "model": TaskCreated,
            "description": "An identical task already existed (created false).",
        },
        **error_responses(*READ_ERRORS),
    },
)
async def create_task(
    body: TaskCreate, principal: TasksWrite, session: Tenant, fields: TaskFields
) -> Sent[TaskCreated]:
    row, created = await service.create_task(session, body)
    payload: TaskCreated = {**render.task(row), "created": created}
    # `fields` names the task's members: `created` is always sent
    return respond(
        payload, lambda sent: {**fields(sent), "created": created}, 201 if created else 200
    )


@router.get(
    "/{id}", response_model=Task, summary="Retrieve a task", responses=error_responses(*ONE_ERRORS)
)
async def get_task(
    id: str, principal: TasksRead, session: Tenant, fields: TaskFields
) -> Sent[Task]:
    return respond(render.task(await service.get_or_404(session, id)), fields)
