from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class AiAction(Base):
    """What an AI job performed through a tool (homebase/ai/actions.py, docs/ai.md): the
    tool, its outcome and the object it made or changed (an appointment, a task). Ids
    and outcomes only, never a text: a job that composes again reads it and never books
    twice."""

    __tablename__ = "ai_actions"
    __table_args__ = (
        Index("ix_ai_actions_contact", "workspace_id", "contact_id", "id"),
        Index("ix_ai_actions_job", "workspace_id", "ai_job_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    ai_job_id: Mapped[str] = mapped_column(ForeignKey("ai_jobs.id"))
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    tool: Mapped[str] = mapped_column(String(40))
    outcome: Mapped[str] = mapped_column(String(40))  # performed, already_done, refused
    object_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
