"""A workspace's send policy (sending window, reply window), kept in the workspace
row's `settings` JSON column beside its lead policy (workspaces/lead_policy.py), with
lawful defaults (docs/messaging.md). Not the process's settings (config.Settings).

- sms_window_start / sms_window_end ("HH:MM", default 08:00 and 20:00): proactive texts
  go out only inside [start, end) in the recipient's local time. The federal TCPA
  window is 08:00-21:00; 20:00 also satisfies the stricter state laws (Florida,
  Oklahoma, ...). A workspace may narrow the window, never widen it past 08:00-21:00.
- reply_window_hours (default 24): a text is proactive unless the recipient wrote to
  the workspace within this many hours.
"""

from datetime import time
from typing import TypedDict

from pydantic import BaseModel, ConfigDict, Field, model_validator

from homebase.compliance.gates import SendingWindow
from homebase.db.tenancy import TenantSession
from homebase.kit.wire import JsonObject

EARLIEST = time(8, 0)
LATEST = time(21, 0)


class SendPolicy(BaseModel):
    model_config = ConfigDict(extra="ignore")

    sms_window_start: time = time(8, 0)
    sms_window_end: time = time(20, 0)
    reply_window_hours: int = Field(24, ge=0, le=24 * 30)

    @model_validator(mode="after")
    def _lawful(self) -> "SendPolicy":
        if not EARLIEST <= self.sms_window_start < self.sms_window_end <= LATEST:
            raise ValueError("the sending window must lie within 08:00-21:00, start < end")
        return self

    @property
    def window(self) -> SendingWindow:
        return SendingWindow(self.sms_window_start, self.sms_window_end)


class WorkspaceRow(TypedDict):
    """What sending reads of the workspace: its status (the account gate), its stored
    messaging settings and its name (the HELP reply)."""

    status: str
    settings: JsonObject | None  # the workspace's stored settings, read by send_policy
    name: str


async def workspace_row(session: TenantSession) -> WorkspaceRow:
    row = await session.workspace()
    if not row:
        return {"status": "suspended", "settings": {}, "name": ""}
    return {"status": row["status"], "settings": row["settings"], "name": row["name"]}


def send_policy(stored: JsonObject | None) -> SendPolicy:
    """Stored values that are invalid fall back to the defaults: never a wider window."""
    try:
        return SendPolicy.model_validate(stored or {})
    except ValueError:
        return SendPolicy()
