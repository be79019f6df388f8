from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class AutomationEnrolment(Base):
    """One contact going through one automation: which step is next, and when."""

    __tablename__ = "automation_enrolments"
    __table_args__ = (
        Index("ix_automation_enrolments_workspace_id_id", "workspace_id", "id"),
        Index("ix_automation_enrolments_automation", "workspace_id", "automation_id", "id"),
        # The engine's claim: active enrolments by due time, across workspaces.
        Index("ix_automation_enrolments_due", "status", "next_run_at"),
        # At most one active enrolment of a contact in an automation (enroll's upsert).
        Index(
            "uq_automation_enrolments_active",
            "workspace_id",
            "automation_id",
            "contact_id",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    automation_id: Mapped[str] = mapped_column(ForeignKey("automations.id"))
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    status: Mapped[str] = mapped_column(String(16))  # active | completed | stopped | failed
    step_index: Mapped[int] = mapped_column(Integer)  # the next step to run
    next_run_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer)  # failed tries of the current step
    last_error: Mapped[str | None] = mapped_column(Text)
    # A text step the lawful hours refuse waits until this time at the latest (null: none
    # is waiting): automations/actions.py.
    step_wait_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    actor: Mapped[str | None] = mapped_column(String(60))
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
