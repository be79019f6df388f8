from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class Task(Base):
    """A follow-up task: what, about whom, for which member, by when."""

    __tablename__ = "tasks"
    __table_args__ = (
        # `updated_after` walks (updated_at, id) ascending (docs/sync.md).
        Index("ix_tasks_workspace_updated", "workspace_id", "updated_at", "id"),
        Index("ix_tasks_workspace_id_id", "workspace_id", "id"),
        Index("ix_tasks_contact", "workspace_id", "contact_id", "id"),
        Index("ix_tasks_assignee", "workspace_id", "assignee_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    title: Mapped[str] = mapped_column(String(200))
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    assignee_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"))
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(16))  # open | done | cancelled
    notes: Mapped[str | None] = mapped_column(Text)
    priority: Mapped[str] = mapped_column(String(16), default="normal")  # low | normal | high
    source: Mapped[str] = mapped_column(String(16))  # api | automation
    dedupe_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
