from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Listing(Base):
    """A property the workspace itself lists (never MLS inventory)."""

    __tablename__ = "listings"
    __table_args__ = (
        Index("ix_listings_workspace_id_id", "workspace_id", "id"),
        Index("ix_listings_workspace_status", "workspace_id", "status", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    address: Mapped[str] = mapped_column(String(200))
    unit: Mapped[str | None] = mapped_column(String(40))
    city: Mapped[str] = mapped_column(String(80))
    city_lower: Mapped[str] = mapped_column(String(80))
    state: Mapped[str] = mapped_column(String(40))
    zip: Mapped[str] = mapped_column(String(16))
    price_cents: Mapped[int | None] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    beds: Mapped[int | None] = mapped_column(Integer)
    baths: Mapped[float | None] = mapped_column(Float)
    square_feet: Mapped[int | None] = mapped_column(Integer)
    property_type: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16))
    description: Mapped[str | None] = mapped_column(Text)
    photos: Mapped[list[dict[str, Any]]] = mapped_column(JSONValue)
    agent_id: Mapped[str | None] = mapped_column(String(40))
    url: Mapped[str | None] = mapped_column(String(2048))  # its page; an AI reply may link it
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
