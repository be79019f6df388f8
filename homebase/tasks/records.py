"""A task as the code carries it: the `tasks` table's row (models/task.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime

from typing_extensions import TypedDict


class TaskRecord(TypedDict):
    id: str
    title: str
    contact_id: str | None
    assignee_id: str | None
    due_at: datetime | None
    status: str  # a TaskStatus value
    notes: str | None
    priority: str  # a TaskPriority value
    source: str  # api | automation | ai
    dedupe_key: str
    created_at: datetime
    updated_at: datetime


class TaskDue(TypedDict):
    """What an erasure reads of a task to key it again (repository.scrub_for_contact)."""

    id: str
    assignee_id: str | None
    due_at: datetime | None


class TaskChanges(TypedDict, total=False):
    """Columns a change of an open task writes (service.complete_task, reassign_task)."""

    status: str
    assignee_id: str | None
    dedupe_key: str
    updated_at: datetime
