from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class RoutingCursor(Base):
    """A round-robin rule's rotation: the number of turns handed out so far.

    Live routing takes a turn with one `UPDATE ... SET position = position + 1 RETURNING
    position`, which is atomic on SQLite and PostgreSQL alike, so concurrent requests on
    any number of instances never share or skip a turn.
    """

    __tablename__ = "routing_cursors"

    rule_id: Mapped[str] = mapped_column(ForeignKey("routing_rules.id"), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    position: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
