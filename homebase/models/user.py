from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class User(Base):
    """A member of a workspace: owner of contacts, assignee of leads and tasks. A member
    removed by `homebase admin remove-member` keeps the row (messages, appointments, leads
    and the timeline still name it) with `removed_at` set: no sign-in, no routing, no new
    work (workspaces/members.py)."""

    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("workspace_id", "email"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    name: Mapped[str] = mapped_column(String(120))
    password_hash: Mapped[str | None] = mapped_column(String(200))
    office_id: Mapped[str | None] = mapped_column(String(40))
    team_id: Mapped[str | None] = mapped_column(String(40))
    # The member's own phone (E.164): where the AI's calls are warm-transferred
    # (docs/voice.md). A contact's data rule applies: masked without contacts:read:pii.
    phone: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
