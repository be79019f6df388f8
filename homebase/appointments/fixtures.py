"""load-fixtures kind `appointments` (docs/fixtures.md): demo and test data, booked
through the same rules as POST /appointments (events, timeline, calendar push)."""

from datetime import timedelta
from typing import Any

from homebase.appointments import service
from homebase.appointments.schemas import AppointmentCreate, AppointmentOutcome, AppointmentUpdate
from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs, resolve_ref
from homebase.kit.errors import AdminError, ValidationFailed


# `item`: a fixture file's JSON object (a boundary)
def _relative_times(session: TenantSession, item: dict[str, Any]) -> None:
    """starts_in_hours (from load time) and duration_minutes instead of fixed times, so
    demo appointments stay in the near future."""
    hours = item.pop("starts_in_hours", None)
    minutes = item.pop("duration_minutes", 45)
    if hours is None:
        return
    if not isinstance(hours, int | float) or not isinstance(minutes, int) or minutes < 1:
        raise AdminError("starts_in_hours must be a number and duration_minutes a positive integer")
    now = session.now().replace(minute=0, second=0, microsecond=0)
    starts = now + timedelta(hours=hours)
    item["starts_at"] = starts.isoformat()
    item["ends_at"] = (starts + timedelta(minutes=minutes)).isoformat()


# `item`: a fixture file's JSON object, checked by AppointmentCreate (a boundary)
async def load_appointment(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    for name, column in (
        ("contact", "contact_id"),
        ("creator", "created_by"),
        ("assignee", "assignee_id"),
    ):
        if name in item:
            item[column] = resolve_ref(refs, item.pop(name), name)
    outcome = item.pop("outcome", None)
    if outcome is not None and outcome not in set(AppointmentOutcome):
        raise AdminError(f"outcome: one of {', '.join(AppointmentOutcome)}")
    _relative_times(session, item)
    body = AppointmentCreate.model_validate(item)
    try:
        row = await service.book(session, body)
        if outcome is not None:
            row = await service.update(
                session, row["id"], patch=AppointmentUpdate(outcome=AppointmentOutcome(outcome))
            )
    except ValidationFailed as error:
        raise AdminError(error.message) from error
    row_id: str = row["id"]
    return row_id
