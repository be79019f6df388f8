from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class Pipeline(Base):
    """A workspace's sales pipeline (buyer, seller, ...); its stages are PipelineStage rows."""

    __tablename__ = "pipelines"
    # (workspace_id, key) unique: the default buyer and seller pipelines are created lazily
    # and concurrently-safe (INSERT ... ON CONFLICT DO NOTHING).
    __table_args__ = (UniqueConstraint("workspace_id", "key"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    key: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(80))
    position: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
