from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Lead(Base):
    """An inbound lead: who, from where, its consent, and how it was routed."""

    __tablename__ = "leads"
    __table_args__ = (
        # `updated_after` walks (updated_at, id) ascending (docs/sync.md).
        Index("ix_leads_workspace_updated", "workspace_id", "updated_at", "id"),
        Index("ix_leads_workspace_id_id", "workspace_id", "id"),
        Index("ix_leads_contact", "workspace_id", "contact_id", "id"),
        # attach_consent seeks the leads of a number whose consent is missing or ends
        # sooner (migration 0010); phone lookups use its first two columns.
        Index("ix_leads_phone_consent", "workspace_id", "phone_e164", "consent_expires_at"),
        # first-available counts each member's recent assignments.
        Index("ix_leads_assignee", "workspace_id", "assignee_id", "assigned_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    first_name: Mapped[str | None] = mapped_column(String(80))
    last_name: Mapped[str | None] = mapped_column(String(80))
    email: Mapped[str | None] = mapped_column(String(254))
    phone: Mapped[str] = mapped_column(String(32))
    phone_e164: Mapped[str | None] = mapped_column(String(32))
    source: Mapped[str] = mapped_column(String(80))
    source_ref: Mapped[str | None] = mapped_column(String(120))
    context: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    consent_id: Mapped[str | None] = mapped_column(String(40))
    consent_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    routing_status: Mapped[str] = mapped_column(String(16))  # assigned | unassigned | skipped
    assignee_id: Mapped[str | None] = mapped_column(String(40))
    assigned_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    routing_rule_id: Mapped[str | None] = mapped_column(String(40))
    routing_method: Mapped[str | None] = mapped_column(String(20))
    rotation_turn: Mapped[int | None] = mapped_column(BigInteger)
    routing_reason: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
