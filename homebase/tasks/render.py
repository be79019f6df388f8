"""Task records to the Task wire type."""

from typing import cast

from homebase.kit.clock import isoformat
from homebase.tasks.records import TaskRecord
from homebase.tasks.schemas import Task, TaskPriority, TaskStatus


def task(row: TaskRecord) -> Task:
    return {
        "id": row["id"],
        "title": row["title"],
        "contact_id": row["contact_id"],
        "assignee_id": row["assignee_id"],
        "due_at": isoformat(row["due_at"]),
        # stored as the TaskStatus value, which is what the wire sends
        "status": cast(TaskStatus, row["status"]),
        "notes": row["notes"],
        # stored as the TaskPriority value
        "priority": cast(TaskPriority, row["priority"]),
        "source": row["source"],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }
