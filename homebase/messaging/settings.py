"""Per-workspace messaging settings, kept in `workspaces.settings` (JSON) beside the
others, with lawful defaults (docs/messaging.md).

- sms_window_start / sms_window_end ("HH:MM", default 08:00 and 20:00): proactive texts
  go out only inside [start, end) in the recipient's local time. The federal TCPA
  window is 08:00-21:00; 20:00 also satisfies the stricter state laws (Florida,
  Oklahoma, ...). A workspace may narrow the window, never widen it past 08:00-21:00.
- reply_window_hours (default 24): a text is proactive unless the recipient wrote to
  the workspace within this many hours.
"""

from datetime import time

from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import select

from homebase.compliance.gates import SendingWindow
from homebase.db.tenancy import TenantSession
from homebase.models import Workspace

workspaces = Workspace.__table__
EARLIEST = time(8, 0)
LATEST = time(21, 0)


class MessagingSettings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    sms_window_start: time = time(8, 0)
    sms_window_end: time = time(20, 0)
    reply_window_hours: int = Field(24, ge=0, le=24 * 30)

    @model_validator(mode="after")
    def _lawful(self) -> "MessagingSettings":
        if not EARLIEST <= self.sms_window_start < self.sms_window_end <= LATEST:
            raise ValueError("the sending window must lie within 08:00-21:00, start < end")
        return self

    @property
    def window(self) -> SendingWindow:
        return SendingWindow(self.sms_window_start, self.sms_window_end)


async def workspace_row(session: TenantSession) -> dict:
    # The workspace row is the tenant itself, so it is read by its id, not through select().
    row = (
        (
            await session.connection.execute(
                select(workspaces.c.status, workspaces.c.settings, workspaces.c.name).where(
                    workspaces.c.id == session.workspace_id
                )
            )
        )
        .mappings()
        .first()
    )
    return dict(row) if row else {"status": "suspended", "settings": {}, "name": ""}


def messaging_settings(stored: dict | None) -> MessagingSettings:
    """Stored values that are invalid fall back to the defaults: never a wider window."""
    try:
        return MessagingSettings.model_validate(stored or {})
    except ValueError:
        return MessagingSettings()
