from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, with_config
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.kit.pagination import UpdatedAfter, updated_after_field
from homebase.kit.schema_rules import Moment, not_blank
from homebase.kit.wire import WireTime

Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
FilterId = Annotated[str, StringConstraints(max_length=40)]


class TaskStatus(StrEnum):
    open = "open"
    done = "done"
    cancelled = "cancelled"


class TaskPriority(StrEnum):
    low = "low"
    normal = "normal"
    high = "high"


_TASK_EXAMPLE: JsonDict = {
    "title": "Call Dana about the Noe Valley offer",
    "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "due_at": "2026-11-21T17:00:00.000Z",
    "status": "open",
    "notes": "She asked for comps on Elizabeth St.",
    "priority": "normal",
}
_TASK_RESPONSE = {
    "id": "tsk_01jd3v6k8h2k3m4n5p6q7r8s9t",
    **_TASK_EXAMPLE,
    "source": "api",
    "created_at": "2026-11-20T17:04:05.123Z",
    "updated_at": "2026-11-20T17:04:05.123Z",
}


class TaskCreate(BaseModel):
    """title is required. The same title, contact_id, assignee_id and due_at sent again
    within 60 seconds returns the existing task (created false) instead of a second one."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_TASK_EXAMPLE]})

    title: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200), not_blank()
    ]
    contact_id: Id | None = Field(None, description="A contact of this workspace.")
    assignee_id: Id | None = Field(None, description="A member (user) of this workspace.")
    due_at: Moment | None = Field(None, description="ISO 8601 with a time zone.")
    status: TaskStatus = TaskStatus.open
    notes: Annotated[str, StringConstraints(max_length=20000)] | None = Field(
        None, description="Not part of what makes two tasks identical."
    )
    priority: TaskPriority = Field(
        TaskPriority.normal, description="Not part of what makes two tasks identical."
    )


# The task as GET /v1/tasks/{id} sends it (render.task). No docstring: it would become
# the schema's description.
@with_config(json_schema_extra={"examples": [_TASK_RESPONSE]})
class Task(TypedDict):
    id: str
    title: str
    contact_id: str | None
    assignee_id: str | None
    due_at: WireTime | None
    status: TaskStatus
    notes: str | None
    priority: Annotated[
        TaskPriority,
        Field(
            description="low, normal or high; an AI handoff's follows the model's urgency "
            '(docs/ai.md, "Handoff").'
        ),
    ]
    source: Annotated[
        str,
        Field(
            description="api; automation when an automation's create_task step made it; ai "
            "when the AI responder handed the lead to a person (docs/ai.md)."
        ),
    ]
    created_at: WireTime
    updated_at: WireTime


@with_config(
    json_schema_extra={
        "examples": [{**_TASK_RESPONSE, "created": True}, {**_TASK_RESPONSE, "created": False}]
    }
)
class TaskCreated(Task):
    """The task, and whether this request created it."""

    created: Annotated[
        bool,
        Field(
            description="false: an identical task was created within the "
            "last 60 seconds; this is that task (answered 200)."
        ),
    ]


class TaskFilters(BaseModel):
    contact_id: FilterId | None = None
    assignee_id: FilterId | None = None
    status: TaskStatus | None = None
    due_before: Moment | None = Field(
        None, description="Tasks due strictly before this moment (ISO 8601)."
    )
    updated_after: UpdatedAfter | None = updated_after_field()
