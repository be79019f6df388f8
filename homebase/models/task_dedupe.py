from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class TaskDedupe(Base):
    """The live claim on a task's identity: one row per (workspace, dedupe key).

    POST /tasks upserts it atomically and takes it over only once expired
    (homebase/tasks/repository.py), so two identical creates, on any instances, make
    one task. task_id has no foreign key: the claim is written before its task.
    """

    __tablename__ = "task_dedupe"
    __table_args__ = (Index("ix_task_dedupe_expires_at", "expires_at"),)

    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), primary_key=True)
    dedupe_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    task_id: Mapped[str] = mapped_column(String(40))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
