"""An appointment as the code carries it: the `appointments` table's row
(models/appointment.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Literal

from typing_extensions import TypedDict

Outcome = Literal["showed", "no_show", "cancelled"]  # AppointmentOutcome's values


class AppointmentRecord(TypedDict):
    id: str
    contact_id: str
    created_by: str | None
    assignee_id: str | None
    title: str
    location: str | None
    notes: str | None
    starts_at: datetime
    ends_at: datetime
    outcome: Outcome | None
    outcome_recorded_at: datetime | None
    created_at: datetime
    updated_at: datetime


class AppointmentChanges(TypedDict, total=False):
    """Columns an update changes (service.update)."""

    assignee_id: str | None
    title: str
    location: str | None
    notes: str | None
    starts_at: datetime
    ends_at: datetime
    outcome: Outcome | None
    outcome_recorded_at: datetime | None
    updated_at: datetime
