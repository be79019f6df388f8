"""The state table at the send path (docs/messaging.md, "Lawful hours by state"): Texas'
hours and Florida's attempt limit refuse and record as every gate does, replies are held
to neither; and the AI's scheduler reads the same table (messaging/lawful.lawful_at). On
SQLite and PostgreSQL, on the injectable clock."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.messaging import lawful
from homebase.models import Message
from tests.messaging_support import TOKEN, add_consent, add_sender, reply
from tests.outreach_support import at

DALLAS = "+12145550142"
MIAMI = "+13055550142"
CENTRAL = ZoneInfo("America/Chicago")
EASTERN = ZoneInfo("America/New_York")


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN}


def next_day(weekday: int, hour: int, zone: ZoneInfo) -> datetime:
    day = datetime.now(zone).date() + timedelta(days=2)
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, hour, 0, tzinfo=zone)


async def send(tenant, to: str):
    return await tenant.post("/v1/messages", json={"channel": "sms", "to": to, "body": "Hi!"})


async def test_texas_on_sunday_morning_is_refused_until_noon(runtime, tenant):
    clock = at(runtime, next_day(6, 11, CENTRAL))
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, DALLAS)
    refused = await send(tenant, DALLAS)
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["details"]["reason"] == "quiet_hours" and "Texas" in error["message"]
    clock.advance(hours=1)
    assert (await send(tenant, DALLAS)).status_code == 201


async def test_florida_gets_three_proactive_texts_a_day(runtime, client, tenant):
    clock = at(runtime, next_day(1, 10, EASTERN))
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, MIAMI)
    for _ in range(3):
        assert (await send(tenant, MIAMI)).status_code == 201
        clock.advance(hours=1)
    refused = await send(tenant, MIAMI)
    assert refused.status_code == 422, refused.text
    details = refused.json()["error"]["details"]
    assert (details["reason"], details["recorded"]) == ("attempt_limit", True)
    assert "remedy" in details
    stored = (await tenant.get(f"/v1/messages/{details['message_id']}")).json()
    assert (stored["status"], stored["blocked_reason"]) == ("FAILED", "attempt_limit")
    # a reply is not limited, and not counted
    assert (await reply(client, MIAMI, "yes, still interested")).status_code == 200
    assert (await send(tenant, MIAMI)).status_code == 201
    # once the counted texts are 24 hours old (and the reply window is over): proactive again
    clock.advance(hours=48)
    assert (await send(tenant, MIAMI)).status_code == 201


async def test_the_scheduler_waits_for_the_oldest_to_age_out(runtime, tenant):
    clock = at(runtime, next_day(1, 10, EASTERN))
    now = clock()
    made = [now - timedelta(hours=hours) for hours in (20, 6, 1)]
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await session.insert(Message.__table__, [_proactive(at_) for at_ in made])
        latest = now + timedelta(hours=24)
        assert await lawful.lawful_at(session, MIAMI, latest=latest) == made[0] + timedelta(
            hours=24
        )
        # too late for the text's last minute: none
        assert await lawful.lawful_at(session, MIAMI, latest=now + timedelta(hours=3)) is None
        # a number whose state has no limit: now
        assert await lawful.lawful_at(session, "+12125550142", latest=latest) == now


def _proactive(created_at: datetime) -> dict:
    return {
        "id": new_id("msg"),
        "contact_id": None,
        "channel": "SMS",
        "direction": "OUTBOUND",
        "status": "SENT",
        "from_address": "+14155550100",
        "to_address": MIAMI,
        "counterpart": MIAMI,
        "body": "Hi!",
        "ai_generated": False,
        "proactive": True,
        "attempts": 1,
        "created_at": created_at,
        "updated_at": created_at,
    }
