from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base

LIVE_WHERE = "deleted_at IS NULL"


class CustomField(Base):
    """A workspace's definition of a custom field of contacts or deals
    (homebase/custom_fields/, docs/custom-fields.md).

    DELETE sets `deleted_at`: from then on the field is gone for the API (its key is free
    again: the unique index covers live fields only), and the row is the worker's note
    that its values are still to be removed (custom_fields/jobs.py), deleted with the last
    of them."""

    __tablename__ = "custom_fields"
    __table_args__ = (
        Index("ix_custom_fields_workspace_object", "workspace_id", "object", "id"),
        Index(
            "ux_custom_fields_live_key",
            "workspace_id",
            "object",
            "key",
            unique=True,
            postgresql_where=text(LIVE_WHERE),
            sqlite_where=text(LIVE_WHERE),
        ),
        # The purge job's look for deleted fields, every worker round.
        Index("ix_custom_fields_deleted", "deleted_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    object: Mapped[str] = mapped_column(String(16))  # contacts | deals
    key: Mapped[str] = mapped_column(String(40))
    label: Mapped[str] = mapped_column(String(80))
    # text | number | date | boolean | single_select | multi_select
    type: Mapped[str] = mapped_column(String(16))
    choices: Mapped[Any] = mapped_column(JSONValue, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
