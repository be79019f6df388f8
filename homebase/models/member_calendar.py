from datetime import datetime

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class MemberCalendar(Base):
    """A member's connected CalDAV calendar: one per member, replaced on reconnect.

    `credentials_sealed` holds the username and password, sealed (kit/sealed.py) with
    the service secret and bound to the row id.
    """

    __tablename__ = "member_calendars"
    __table_args__ = (UniqueConstraint("workspace_id", "user_id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    url: Mapped[str] = mapped_column(String(2048))  # the collection, ending in /
    credentials_sealed: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
