from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class DncRegistration(Base):
    """A number of the workspace's National Do Not Call Registry extract, loaded with the
    `dnc_registry` fixture kind (no network look-up), and when it was registered: a
    campaign does not reach it unless the number's consent artifact is newer."""

    __tablename__ = "dnc_registrations"
    __table_args__ = (
        Index("uq_dnc_registrations_phone", "workspace_id", "phone_e164", unique=True),
        Index("ix_dnc_registrations_workspace_id_id", "workspace_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    phone_e164: Mapped[str] = mapped_column(String(32))
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime)
    loaded_at: Mapped[datetime] = mapped_column(UTCDateTime)
