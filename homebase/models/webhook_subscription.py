from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class WebhookSubscription(Base):
    """A receiving URL and the events it wants.

    The signing secret is stored encrypted (AES-GCM under a key derived from
    HOMEBASE_SECRET_KEY), never in plain text: the worker must be able to sign with it,
    so a hash would not do. `scopes` is what the creating credential could read; fan-out
    only sends events those scopes may read. Deleting sets deleted_at, so the delivery
    log keeps its subscription and no further delivery is made.

    `created_by` is the creating credential's id and `created_by_kind` its kind
    (api_key | oauth_token | console_member; NULL for rows older than migration 0012 that
    matched none). An app-created subscription names its `grant_id`: it lives only while
    that grant does, and receives only what the grant's current scopes read.

    `failing_since` is the first failed attempt since the last success (or since creation
    or re-enabling); any success clears it. `disabled_at` and `disabled_reason` (failing:
    every attempt failed for HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS; paused: a client or
    member asked) mark a disabled subscription, which fan-out skips (migration 0025).
    """

    __tablename__ = "webhook_subscriptions"
    __table_args__ = (
        Index("ix_webhook_subscriptions_workspace_id_id", "workspace_id", "id"),
        Index("ix_webhook_subscriptions_grant_id", "grant_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    url: Mapped[str] = mapped_column(String(2048))
    event_types: Mapped[list[str]] = mapped_column(JSONValue)  # [] means every event
    secret_encrypted: Mapped[str] = mapped_column(Text)
    secret_hint: Mapped[str] = mapped_column(String(16))
    scopes: Mapped[list[str]] = mapped_column(JSONValue)
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_by_kind: Mapped[str | None] = mapped_column(String(20))
    grant_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    disabled_reason: Mapped[str | None] = mapped_column(String(16))  # failing | paused
