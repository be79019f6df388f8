from datetime import date, datetime
from typing import Any

from sqlalchemy import BigInteger, Date, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Deal(Base):
    """A deal in a pipeline stage. Money is kept in minor units (cents); the wire carries
    decimal strings. The contact link survives the contact's anonymization."""

    __tablename__ = "deals"
    __table_args__ = (
        # `updated_after` walks (updated_at, id) ascending (docs/sync.md).
        Index("ix_deals_workspace_updated", "workspace_id", "updated_at", "id"),
        Index("ix_deals_workspace_id_id", "workspace_id", "id"),
        Index("ix_deals_workspace_contact", "workspace_id", "contact_id", "id"),
        Index("ix_deals_workspace_stage", "workspace_id", "stage_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    pipeline_id: Mapped[str] = mapped_column(ForeignKey("pipelines.id"))
    stage_id: Mapped[str] = mapped_column(ForeignKey("pipeline_stages.id"))
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    title: Mapped[str] = mapped_column(String(200))
    value_cents: Mapped[int | None] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    expected_close_date: Mapped[date | None] = mapped_column(Date)
    owner_id: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(8))  # open | won | lost
    # Percent in hundredths (250 = 2.50 %); the amount, when not set, derives from it.
    commission_rate_bp: Mapped[int | None] = mapped_column(Integer)
    commission_cents: Mapped[int | None] = mapped_column(BigInteger)
    # Custom field values keyed by field id (homebase/custom_fields/), as on contacts.
    custom_fields: Mapped[Any] = mapped_column(JSONValue, nullable=True)
    stage_changed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
