from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Contact(Base):
    __tablename__ = "contacts"
    __table_args__ = (
        # `updated_after` walks (updated_at, id) ascending (docs/sync.md).
        Index("ix_contacts_workspace_updated", "workspace_id", "updated_at", "id"),
        # Keyset pagination walks (workspace_id, id); lead matching looks up by phone/email.
        Index("ix_contacts_workspace_id_id", "workspace_id", "id"),
        Index("ix_contacts_workspace_id_phone_e164", "workspace_id", "phone_e164"),
        Index("ix_contacts_workspace_id_email_lower", "workspace_id", "email_lower"),
        # The list filters walk their own index in keyset order (migration 0016, which
        # also builds the search's trigram indexes: contacts/search.py).
        Index("ix_contacts_workspace_stage_id", "workspace_id", "stage", "id"),
        Index("ix_contacts_workspace_source_id", "workspace_id", "source", "id"),
        Index("ix_contacts_workspace_owner_id", "workspace_id", "owner_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    first_name: Mapped[str | None] = mapped_column(String(80))
    last_name: Mapped[str | None] = mapped_column(String(80))
    email: Mapped[str | None] = mapped_column(String(254))
    email_lower: Mapped[str | None] = mapped_column(String(254))
    phone: Mapped[str | None] = mapped_column(String(32))
    phone_e164: Mapped[str | None] = mapped_column(String(32))
    stage: Mapped[str] = mapped_column(String(16))
    source: Mapped[str | None] = mapped_column(String(80))
    tags: Mapped[list[str]] = mapped_column(JSONValue)
    notes: Mapped[str | None] = mapped_column(Text)
    owner_id: Mapped[str | None] = mapped_column(String(40))
    ai_paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # note | human_message | handoff | daily_limit | manual | opt_out (docs/ai.md)
    ai_paused_reason: Mapped[str | None] = mapped_column(String(16))
    # Custom field values keyed by field id (homebase/custom_fields/), rendered by key for
    # live fields only; null for a contact that never had one.
    custom_fields: Mapped[Any] = mapped_column(JSONValue, nullable=True)
    anonymized_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
