from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class IdempotencyKey(Base):
    """One `Idempotency-Key` of one credential (homebase/idempotency/, docs/decisions.md
    "Idempotency keys").

    The primary key is the claim: the first request inserts the row (in_flight, with a
    lease) in a short committed transaction, so two requests, on any instances, never
    both run. The request's own transaction marks it completed with the response, so the
    work and its stored answer commit together or not at all. The client's key is kept
    only as a hash; the response body only sealed under the secret key.
    """

    __tablename__ = "idempotency_keys"
    __table_args__ = (Index("ix_idempotency_keys_expires_at", "expires_at"),)

    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), primary_key=True)
    credential_kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    credential_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 hex
    fingerprint: Mapped[str] = mapped_column(String(64))  # sha256: method, path?query, body
    owner: Mapped[str] = mapped_column(String(40))  # the request id holding or completing it
    status: Mapped[str] = mapped_column(String(16))  # in_flight | completed
    lease_expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    response_status: Mapped[int | None] = mapped_column(Integer)
    response_body: Mapped[str | None] = mapped_column(Text)  # kit/sealed.py
    # " con_a con_b ": the contacts the stored response names, so anonymizing one
    # finds (and deletes) the responses that may hold its data.
    contact_ids: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
