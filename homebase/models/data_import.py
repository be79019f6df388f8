from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue, UTCDateTime
from homebase.models.base import Base

# A dry run writes no record, so it takes no workspace's running slot.
RUNNING_WHERE = "status = 'running' AND NOT dry_run"


class DataImport(Base):
    """One bulk import (POST /v1/imports, homebase/imports/, docs/imports-exports.md).

    The rows wait in `payload` (the request's rows, bounded by HOMEBASE_MAX_BODY_BYTES)
    until the worker has processed them all; `position` is how many are done, written in
    the same transaction as each batch's contacts or leads, so a worker that dies resumes
    at the last batch it committed. `payload` is emptied (null) when the import finishes:
    the job row keeps counts and times only, and is pruned after the retention period.

    status: queued -> running -> completed | failed
    """

    __tablename__ = "imports"
    __table_args__ = (
        Index("ix_imports_workspace_id_id", "workspace_id", "id"),
        Index("ix_imports_status_id", "status", "id"),
        Index("ix_imports_finished_at", "finished_at"),
        # One running import per workspace: two claims at once cannot both start one.
        Index(
            "ux_imports_running_workspace",
            "workspace_id",
            unique=True,
            postgresql_where=text(RUNNING_WHERE),
            sqlite_where=text(RUNNING_WHERE),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    object: Mapped[str] = mapped_column(String(16))  # contacts | leads
    status: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSONValue)  # match_on, skip_routing
    payload: Mapped[list[Any] | None] = mapped_column(JSONValue)  # the rows; null once done
    row_count: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)  # rows processed, committed
    created_count: Mapped[int] = mapped_column(Integer)
    updated_count: Mapped[int] = mapped_column(Integer)
    unchanged_count: Mapped[int] = mapped_column(Integer)
    failed_count: Mapped[int] = mapped_column(Integer)
    warnings_count: Mapped[int] = mapped_column(Integer)
    # rows that carried none of match_on's keys (each created a contact)
    unmatchable_count: Mapped[int] = mapped_column(Integer)
    # counts what the import would do and writes no record (POST /v1/imports dry_run)
    dry_run: Mapped[bool] = mapped_column(Boolean)
    # {"field: message": refused rows giving it}, the batches' sums (no value of a row)
    refused_by_reason: Mapped[dict[str, int]] = mapped_column(JSONValue)
    # The requester: the credential whose id is the actor of what the import writes
    # (timeline entries), and the scopes it held when the import was accepted.
    credential_kind: Mapped[str] = mapped_column(String(20))
    credential_id: Mapped[str] = mapped_column(String(40))
    scopes: Mapped[list[str]] = mapped_column(JSONValue)
    lease_token: Mapped[str | None] = mapped_column(String(40))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer)  # claims so far
    error: Mapped[str | None] = mapped_column(String(300))  # why it failed
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
