from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class RoutingRule(Base):
    """One ordered lead-routing rule: conditions on the lead, then a method picking an
    agent among its targets. The format is documented in docs/leads.md."""

    __tablename__ = "routing_rules"
    __table_args__ = (Index("ix_routing_rules_order", "workspace_id", "position", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    name: Mapped[str] = mapped_column(String(80))
    position: Mapped[int] = mapped_column(Integer)
    enabled: Mapped[bool] = mapped_column(Boolean)
    is_fallback: Mapped[bool] = mapped_column(Boolean)
    conditions: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    method: Mapped[str] = mapped_column(String(20))  # agent | round_robin | first_available
    # Who the method picks from: explicit member ids, and/or every member of a team/office.
    targets: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
