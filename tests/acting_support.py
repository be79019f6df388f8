"""A responder workspace whose persona acts (docs/ai.md, "Actions"): the qualification
fields, one active listing, the workspace in Pacific time; shared by the AI's tests."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from homebase.ai.tools import TOOLS
from tests.responder_support import load, responder_workspace

ZONE = ZoneInfo("America/Los_Angeles")
QUALIFICATION = {
    "intent": ("single_select", ["buy", "sell", "both", "rent"]),
    "timeline": ("single_select", ["0-3 months", "3-6 months", "6-12 months", "12+ months"]),
    "budget_max": ("number", None),
    "pre_approved": ("boolean", None),
    "area": ("text", None),
    "working_with_agent": ("boolean", None),
}
ACTING = {
    "actions": list(TOOLS),
    "qualification_fields": list(QUALIFICATION),
    "tags": ["buyer", "relocating"],
}
BOOKED_REPLY = "You're booked for a showing of 12 Elm St. See you then!"


async def acting_workspace(runtime, tenant, *, owner=True, **persona) -> tuple[str, str]:
    """The responder workspace in Pacific time, its persona acting, the qualification
    fields and one active listing; (contact id, listing id)."""
    for key, (kind, choices) in QUALIFICATION.items():
        body = {"object": "contacts", "key": key, "label": key, "type": kind}
        if choices:
            body["choices"] = choices
        created = await tenant.post("/v1/custom-fields", json=body)
        assert created.status_code == 201, created.text
    await load(runtime, tenant, {"workspace_settings": [{"time_zone": ZONE.key}]})
    contact_id = await responder_workspace(runtime, tenant, owner=owner, **{**ACTING, **persona})
    listing = {
        "address": "12 Elm St",
        "city": "San Francisco",
        "state": "CA",
        "zip": "94131",
        "price": "612000",
        "status": "active",
        "url": "https://leerealty.example/listings/12-elm",
    }
    loaded = await load(runtime, tenant, {"listings": [listing]})
    return contact_id, loaded["listings"][0]


def next_slot(runtime, hour: int = 11) -> datetime:
    """The next day but Sunday at `hour`:00 workspace time, inside the default hours."""
    day = runtime.clock().astimezone(ZONE).date() + timedelta(days=1)
    while day.weekday() == 6:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, hour, tzinfo=ZONE)


async def appointments(tenant, contact_id) -> list[dict]:
    found = await tenant.get("/v1/appointments", params={"contact_id": contact_id})
    assert found.status_code == 200, found.text
    return found.json()["data"]


async def contact(tenant, contact_id) -> dict:
    return (await tenant.get(f"/v1/contacts/{contact_id}")).json()
