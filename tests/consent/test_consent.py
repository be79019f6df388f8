"""Consent artifacts: recorded with the lead, tied to the E.164 number, valid for the
workspace's consent_validity_days (365 by default), read by valid_consent()."""

from datetime import UTC, datetime, timedelta

import pytest

from homebase.consent.service import valid_consent
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import FrozenClock
from homebase.models import ConsentArtifact
from tests.leads_support import load
from tests.support import make_key

CONSENT = {
    "captured_at": "2026-01-05T14:59:00Z",
    "source_url": "https://demo.example/form",
    "ip": "203.0.113.7",
    "form_snapshot": {"consent_text": "Yes, text me", "box": True},
}


@pytest.fixture
async def clock(runtime, tenant) -> FrozenClock:
    """Frozen time, and a tenant key that never expires so the clock can move a year."""
    clock = FrozenClock(datetime(2026, 1, 5, 15, 0, tzinfo=UTC))
    runtime.clock = clock
    _, key = await make_key(runtime, tenant.id, expires_in_days=None)
    tenant.headers["Authorization"] = f"token {key}"
    return clock


async def artifact_for(runtime, workspace_id, phone_e164):
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        return await valid_consent(session, phone_e164, now=runtime.clock())


async def post_lead(tenant, **extra):
    response = await tenant.post(
        "/v1/leads", json={"phone": "(415) 555-0142", "source": "Website", **extra}
    )
    assert response.status_code == 201, response.text
    return response.json()


async def test_consent_is_stored_as_an_artifact_for_the_number(runtime, tenant, clock):
    lead = await post_lead(tenant, consent=CONSENT)
    assert lead["ai_outbound_allowed"] is True
    artifact = await artifact_for(runtime, tenant.id, "+14155550142")
    assert artifact["id"] == lead["consent_id"] and artifact["lead_id"] == lead["id"]
    assert artifact["phone"] == "(415) 555-0142"
    assert artifact["captured_at"] == datetime(2026, 1, 5, 14, 59, tzinfo=UTC)
    assert artifact["recorded_at"] == clock.now
    assert artifact["expires_at"] == artifact["captured_at"] + timedelta(days=365)
    assert (artifact["source_url"], artifact["ip"]) == (CONSENT["source_url"], CONSENT["ip"])
    assert artifact["form_snapshot"] == CONSENT["form_snapshot"]
    assert lead["consent_expires_at"] == "2027-01-05T14:59:00.000Z"


async def test_without_consent_ai_outbound_is_not_allowed(runtime, tenant, clock):
    lead = await post_lead(tenant)
    assert lead["ai_outbound_allowed"] is False and lead["consent_id"] is None
    assert await artifact_for(runtime, tenant.id, "+14155550142") is None


async def test_empty_consent_object_still_records_consent_now(runtime, tenant, clock):
    lead = await post_lead(tenant, consent={})
    assert lead["ai_outbound_allowed"] is True
    artifact = await artifact_for(runtime, tenant.id, "+14155550142")
    assert artifact["captured_at"] == clock.now


async def test_consent_captured_later_covers_earlier_leads(tenant, clock):
    earlier = await post_lead(tenant)
    later = await post_lead(tenant, phone="+1 415 555 0142", consent=CONSENT)
    refreshed = (await tenant.get(f"/v1/leads/{earlier['id']}")).json()
    assert refreshed["ai_outbound_allowed"] is True
    assert refreshed["consent_id"] == later["consent_id"]


async def test_later_consent_covers_leads_whose_consent_ends_sooner_only(tenant, clock):
    """Earlier leads of the number take the new consent when theirs is missing or ends
    sooner; a longer-lived consent is never replaced by a shorter one."""
    longer = await post_lead(tenant, consent=CONSENT)
    shorter = await post_lead(tenant, consent={**CONSENT, "captured_at": "2026-01-04T10:00:00Z"})
    assert shorter["consent_expires_at"] == "2027-01-04T10:00:00.000Z"
    unconsented = await post_lead(tenant)
    after_shorter = {
        lead["id"]: (await tenant.get(f"/v1/leads/{lead['id']}")).json()
        for lead in (longer, shorter, unconsented)
    }
    assert after_shorter[longer["id"]]["consent_id"] == longer["consent_id"]
    assert after_shorter[unconsented["id"]]["consent_id"] is None

    latest = await post_lead(tenant, consent={})  # captured now: 2027-01-05T15:00
    for lead in (longer, shorter, unconsented):
        refreshed = (await tenant.get(f"/v1/leads/{lead['id']}")).json()
        assert refreshed["consent_id"] == latest["consent_id"]
        assert refreshed["consent_expires_at"] == "2027-01-05T15:00:00.000Z"


async def test_consent_expires_and_ai_outbound_follows(runtime, tenant, clock):
    lead = await post_lead(tenant, consent=CONSENT)
    clock.advance(days=365)
    assert (await tenant.get(f"/v1/leads/{lead['id']}")).json()["ai_outbound_allowed"] is False
    assert await artifact_for(runtime, tenant.id, "+14155550142") is None


async def test_validity_is_a_workspace_setting(runtime, tenant, clock):
    await load(runtime, tenant.id, {"workspace_settings": [{"consent_validity_days": 30}]})
    lead = await post_lead(tenant, consent={**CONSENT, "captured_at": None})
    assert lead["consent_expires_at"] == "2026-02-04T15:00:00.000Z"
    clock.advance(days=29)
    assert await artifact_for(runtime, tenant.id, "+14155550142") is not None
    clock.advance(days=1)
    assert await artifact_for(runtime, tenant.id, "+14155550142") is None


async def test_future_capture_time_does_not_extend_validity(runtime, tenant, clock):
    lead = await post_lead(tenant, consent={"captured_at": "2030-01-01T00:00:00Z"})
    assert lead["consent_expires_at"] == "2027-01-05T15:00:00.000Z"


async def test_consent_without_a_usable_number_does_not_allow_ai(tenant, clock):
    lead = await post_lead(tenant, phone="not a phone", consent=CONSENT)
    assert lead["ai_outbound_allowed"] is False and lead["consent_id"] is not None


async def test_consent_is_per_workspace(runtime, tenant, other_tenant, clock):
    await post_lead(tenant, consent=CONSENT)
    assert await artifact_for(runtime, other_tenant.id, "+14155550142") is None


def test_the_artifact_table_keeps_the_evidence():
    columns = set(ConsentArtifact.__table__.columns.keys())
    assert {
        "captured_at",
        "source_url",
        "ip",
        "form_snapshot",
        "recorded_at",
        "expires_at",
        "phone_e164",
        "revoked_at",
    } <= columns


async def test_later_consent_covers_an_earlier_lead_linked_by_email(tenant, clock):
    """The earlier lead joined a contact holding another number (matched by email); the
    consent for its own number, captured with a lead that creates a new contact, still
    covers it."""
    other = (
        await tenant.post(
            "/v1/contacts", json={"email": "dana@example.com", "phone": "+1 415 555 0199"}
        )
    ).json()
    earlier = await post_lead(tenant, email="dana@example.com")
    assert earlier["contact_id"] == other["id"] and earlier["ai_outbound_allowed"] is False
    later = await post_lead(tenant, consent=CONSENT)
    assert later["contact_id"] != other["id"]
    refreshed = (await tenant.get(f"/v1/leads/{earlier['id']}")).json()
    assert refreshed["ai_outbound_allowed"] is True
    assert refreshed["consent_id"] == later["consent_id"]


async def test_a_unix_time_is_seconds_or_past_2e10_milliseconds(runtime, tenant, clock):
    """captured_at as a number (the spec leaves its type open): the document's description."""
    moment = datetime(2026, 1, 5, 14, 59, tzinfo=UTC)
    seconds = int(moment.timestamp())
    await post_lead(tenant, consent={"captured_at": seconds})
    await post_lead(tenant, phone="+1 415 555 0143", consent={"captured_at": seconds * 1000})
    for phone in ("+14155550142", "+14155550143"):
        assert (await artifact_for(runtime, tenant.id, phone))["captured_at"] == moment
