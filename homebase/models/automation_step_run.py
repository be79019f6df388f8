from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class AutomationStepRun(Base):
    """The idempotency record of one step of one enrolment, written in the transaction
    that makes the step's effect: a second run of the step cannot commit."""

    __tablename__ = "automation_step_runs"
    __table_args__ = (
        UniqueConstraint("enrolment_id", "step_index"),
        Index("ix_automation_step_runs_workspace_id_id", "workspace_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    enrolment_id: Mapped[str] = mapped_column(ForeignKey("automation_enrolments.id"))
    step_index: Mapped[int] = mapped_column(Integer)
    step_type: Mapped[str] = mapped_column(String(20))
    outcome: Mapped[str] = mapped_column(String(16))  # done | blocked | skipped
    detail: Mapped[str | None] = mapped_column(String(500))
    message_id: Mapped[str | None] = mapped_column(String(40))
    task_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
