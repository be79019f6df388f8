"""Records to wire payloads and event data."""

from typing import cast

from homebase.appointments.records import AppointmentRecord
from homebase.appointments.schemas import Appointment, AppointmentOutcome, AppointmentStatus
from homebase.kit.clock import isoformat

STATUS_OF: dict[str | None, AppointmentStatus] = {
    None: AppointmentStatus.scheduled,
    "showed": AppointmentStatus.done,
    "no_show": AppointmentStatus.done,
    "cancelled": AppointmentStatus.cancelled,
}


def appointment(row: AppointmentRecord) -> Appointment:
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        "title": row["title"],
        "starts_at": isoformat(row["starts_at"]),
        "ends_at": isoformat(row["ends_at"]),
        "location": row["location"],
        "notes": row["notes"],
        "created_by": row["created_by"],
        "assignee_id": row["assignee_id"],
        # stored as the enum's value, which is what the wire sends
        "outcome": cast("AppointmentOutcome | None", row["outcome"]),
        "outcome_recorded_at": isoformat(row["outcome_recorded_at"]),
        "status": STATUS_OF[row["outcome"]],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def event(row: AppointmentRecord, **extra: str | None) -> dict[str, object]:
    """Event data (outbox/catalogue.py documents each appointment event): the appointment
    without its notes (free text that may hold personal data travels only to credentials
    that fetch it), and `extra`, what the event adds. No phone numbers at all."""
    payload: dict[str, object] = {**appointment(row)}
    del payload["notes"]
    return {**payload, **extra}
