from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class MemberInvitation(Base):
    """A member's invitation of someone to the workspace (homebase/members/invitations.py):
    the link emailed to `email` holds a random token of which only the SHA-256 is stored.
    Valid until `expires_at` (HOMEBASE_MEMBER_INVITATION_TTL_HOURS after it was made),
    once: `used_at` is set, in the same transaction, when the invitee sets a password and
    becomes the member `user_id`."""

    __tablename__ = "member_invitations"
    __table_args__ = (Index("ix_member_invitations_workspace_id", "workspace_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    email: Mapped[str] = mapped_column(String(254))
    name: Mapped[str] = mapped_column(String(120))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    invited_by: Mapped[str] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"))  # the member it made
