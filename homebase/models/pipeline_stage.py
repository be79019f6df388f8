from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class PipelineStage(Base):
    """One ordered stage of a pipeline."""

    __tablename__ = "pipeline_stages"
    __table_args__ = (
        UniqueConstraint("pipeline_id", "key"),
        Index("ix_pipeline_stages_workspace_pipeline", "workspace_id", "pipeline_id", "position"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    pipeline_id: Mapped[str] = mapped_column(ForeignKey("pipelines.id"))
    key: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(80))
    position: Mapped[int] = mapped_column(Integer)
    # Chance of closing from this stage, 0-100, for weighted pipeline value.
    probability: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
