"""Events are stored whole and masked as they leave: a webhook delivery and a credential
without contacts:read:pii see phones and emails masked (the contact's `pii_masked` true),
a credential holding it sees them as written; erasure scrubs them."""

import re
from datetime import UTC, datetime

import pytest

from homebase.kit.clock import FrozenClock
from homebase.webhooks import render as webhook_render
from tests.events_support import SETTLE, key_of

OWN = ("event_id", "occurred_at")  # the envelope's members of data, not the emitter's


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def _created_event(runtime, tenant, clock, scope: str) -> dict:
    reader = await key_of(runtime, tenant, [scope])
    clock.advance(seconds=SETTLE.total_seconds() + 1)
    page = await reader.get("/v1/events", params={"type": "contact.created"})
    (event,) = page.json()["data"]
    return event["data"]


async def _create(tenant) -> str:
    body = {"first_name": "Dana", "phone": "+1 415 555 0142", "email": "Dana@Example.com"}
    created = await tenant.post("/v1/contacts", json=body)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def test_a_contacts_phone_and_email_show_whole_only_with_pii(tenant, runtime, clock):
    contact_id = await _create(tenant)
    whole = await _created_event(runtime, tenant, clock, "contacts:read:pii")
    assert whole["id"] == contact_id
    assert (whole["phone"], whole["email"]) == ("+1 415 555 0142", "Dana@Example.com")
    assert whole["pii_masked"] is False
    hidden = await _created_event(runtime, tenant, clock, "contacts:read")
    reader = await key_of(runtime, tenant, ["contacts:read"])
    contact = (await reader.get(f"/v1/contacts/{contact_id}")).json()
    assert (hidden["phone"], hidden["email"]) == (contact["phone"], contact["email"])
    assert "555" not in hidden["phone"] and hidden["email"] == "D***@Example.com"
    assert hidden["pii_masked"] is True
    # A webhook delivery carries what the credential without pii sees, and masking
    # leaves the stored data as it was.
    stored = {key: value for key, value in whole.items() if key not in OWN}
    assert webhook_render.masked(stored) == {
        key: value for key, value in hidden.items() if key not in OWN
    }
    assert stored["pii_masked"] is False


async def test_erasure_scrubs_the_stored_event(tenant, runtime, clock):
    contact_id = await _create(tenant)
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code < 300
    whole = await _created_event(runtime, tenant, clock, "contacts:read:pii")
    # The number's digits in no format (a bare "555" could be part of a record id).
    assert not re.search(r"555[\s.)-]*0142", str(whole)) and "Example.com" not in str(whole)
