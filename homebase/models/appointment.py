from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class Appointment(Base):
    """A booked meeting with a contact (docs/appointments.md).

    `outcome` is null until recorded: showed | no_show | cancelled. The wire `status`
    is derived from it. `created_by` is the member whose connected calendar receives it.
    """

    __tablename__ = "appointments"
    __table_args__ = (
        # `updated_after` walks (updated_at, id) ascending (docs/sync.md).
        Index("ix_appointments_workspace_updated", "workspace_id", "updated_at", "id"),
        Index("ix_appointments_workspace_id_id", "workspace_id", "id"),
        Index("ix_appointments_contact", "workspace_id", "contact_id", "id"),
        Index("ix_appointments_starts", "workspace_id", "starts_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    created_by: Mapped[str | None] = mapped_column(ForeignKey("users.id"))
    assignee_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"))
    title: Mapped[str] = mapped_column(String(200))
    location: Mapped[str | None] = mapped_column(String(300))
    notes: Mapped[str | None] = mapped_column(Text)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime)
    outcome: Mapped[str | None] = mapped_column(String(16))
    outcome_recorded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
