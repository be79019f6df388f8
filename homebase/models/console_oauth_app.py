from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class ConsoleOAuthApp(Base):
    """Which workspace registered an OAuth app from the console. Apps belong to no
    workspace (any workspace may authorize any app), but the console's app list shows a
    workspace only the apps its own members registered."""

    __tablename__ = "console_oauth_apps"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"), index=True)
    # The oauth_clients id; no foreign key, so this table does not depend on how the
    # OAuth tables evolve (a row whose app is gone is simply not listed).
    client_id: Mapped[str] = mapped_column(String(40), unique=True)
    registered_by: Mapped[str] = mapped_column(String(40))  # the member's user id
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
