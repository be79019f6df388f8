from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base


class Export(Base):
    """A bulk export of one list (homebase/exports/, docs/imports-exports.md).

    Made by POST /v1/exports with what the requesting credential may see frozen in:
    `pii` (whether it held contacts:read:pii, so the file is masked as that credential's
    list would be) and its `scopes`. A worker claims it with a lease (lease_token,
    lease_expires_at, renewed while it writes), writes the file under a temporary name in
    HOMEBASE_STORAGE_DIR and, fenced by its token, records it (`file_name`, relative to
    that folder). The file is removed after 7 days, or at once when a contact is erased.

    status: queued -> running -> completed -> expired (file removed), or failed.
    `file_name` stays set until the file is gone from disk: an expired row whose
    file_name is still set is a file waiting to be removed.
    """

    __tablename__ = "exports"
    __table_args__ = (
        Index("ix_exports_workspace_id_id", "workspace_id", "id"),
        Index("ix_exports_status", "status", "lease_expires_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    object: Mapped[str] = mapped_column(String(16))  # contacts | leads | deals | ...
    format: Mapped[str] = mapped_column(String(8))  # ndjson | csv
    filters: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    fields: Mapped[str | None] = mapped_column(String(1000))
    pii: Mapped[bool] = mapped_column(Boolean)
    scopes: Mapped[list[str]] = mapped_column(JSONValue)  # the requester's, as granted
    requested_by: Mapped[str] = mapped_column(String(40))  # the credential's id
    status: Mapped[str] = mapped_column(String(16))
    rows: Mapped[int] = mapped_column(Integer)
    file_name: Mapped[str | None] = mapped_column(String(300))
    failure_reason: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer)
    lease_token: Mapped[str | None] = mapped_column(String(40))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
