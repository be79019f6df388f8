from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class CalendarPush(Base):
    """The durable job that puts an appointment on its creator's calendar, one row per
    appointment (docs/appointments.md).

    Every change that the calendar shows bumps `revision` and makes the row pending and
    due. A worker claims it with a lease (lease_token, lease_expires_at), PUTs the
    current state outside any transaction, and records the outcome only while its token
    still holds; a success for an older revision leaves the row pending for the newer.
    Failures retry with backoff until `attempts` reaches the maximum: then failed.
    """

    __tablename__ = "calendar_pushes"
    __table_args__ = (Index("ix_calendar_pushes_due", "status", "next_attempt_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    appointment_id: Mapped[str] = mapped_column(ForeignKey("appointments.id"), unique=True)
    calendar_id: Mapped[str] = mapped_column(ForeignKey("member_calendars.id"))
    status: Mapped[str] = mapped_column(String(16))  # pending | succeeded | failed
    revision: Mapped[int] = mapped_column(Integer)
    attempts: Mapped[int] = mapped_column(Integer)  # since the latest revision
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lease_token: Mapped[str | None] = mapped_column(String(40))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_status_code: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
