"""Automation text steps wait for the lead's lawful hours instead of failing, at most 24
hours, then fail with their reason as before; and the `ai_text` step, the AI's text as
the responder persona (docs/automations.md, docs/ai.md "First touch and follow-ups").
On SQLite and PostgreSQL, on the injectable clock."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from homebase.kit.errors import AdminError
from homebase.models import AutomationEnrolment
from tests.automations_support import PERSONA, contact, load, sendable, step_runs, tick
from tests.messaging_support import add_consent
from tests.outreach_support import at, outreach_rows, texts_to
from tests.responder_support import DISCLOSURE, RESPONDER, TWILIO, drive

SAN_FRANCISCO = "+14155550142"
JACKSON = "+16015550142"  # Mississippi: no proactive texts on Sunday
PACIFIC = ZoneInfo("America/Los_Angeles")
CENTRAL = ZoneInfo("America/Chicago")
TEXT_STEP = [
    {
        "type": "send_message",
        "persona": "ava",
        "channel": "SMS",
        "template": "Hi {first_name}, the open house is on Saturday.",
    }
]


@pytest.fixture
def settings_overrides():
    return dict(TWILIO)


def next_day(weekday: int, hour: int, minute: int, zone: ZoneInfo) -> datetime:
    day = datetime.now(zone).date() + timedelta(days=2)
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)


async def enrol(runtime, tenant, steps, phone: str, persona=PERSONA) -> tuple[str, str]:
    created = await load(
        runtime,
        tenant.id,
        {"personas": [persona], "automations": [{"name": "Nurture", "steps": steps}]},
    )
    contact_id = await contact(tenant, phone=phone)
    response = await tenant.post(
        f"/v1/automations/{created['automations'][0]}/enroll", json={"contact_id": contact_id}
    )
    assert response.status_code == 202, response.text
    return response.json()["id"], contact_id


async def enrolment_row(runtime, enrolment_id: str) -> dict:
    table = AutomationEnrolment.__table__
    async with runtime.db.transaction(write=False) as connection:
        found = await connection.execute(select(table).where(table.c.id == enrolment_id))
        return dict(found.mappings().one())


async def test_a_text_step_at_22_30_waits_for_08_00(runtime, tenant):
    evening = next_day(2, 22, 30, PACIFIC)
    clock = at(runtime, evening)
    await sendable(runtime, tenant)
    enrolment_id, _ = await enrol(runtime, tenant, TEXT_STEP, SAN_FRANCISCO)
    await tick(runtime)
    opens = (evening + timedelta(days=1)).replace(hour=8, minute=0).astimezone(UTC)
    row = await enrolment_row(runtime, enrolment_id)
    assert (row["status"], row["step_index"], row["next_run_at"]) == ("active", 0, opens)
    assert row["step_wait_until"] == clock() + timedelta(hours=24)
    assert await step_runs(runtime, enrolment_id) == []  # not run: waiting
    assert await texts_to(runtime, tenant, SAN_FRANCISCO) == []
    clock.now = opens - timedelta(minutes=1)
    await tick(runtime)
    assert await step_runs(runtime, enrolment_id) == []
    clock.now = opens
    await tick(runtime)
    (run,) = await step_runs(runtime, enrolment_id)
    assert run["outcome"] == "done" and run["message_id"]
    row = await enrolment_row(runtime, enrolment_id)
    assert (row["status"], row["step_wait_until"]) == ("completed", None)
    await drive(runtime)
    (sent,) = await texts_to(runtime, tenant, SAN_FRANCISCO)
    assert sent["created_at"].astimezone(PACIFIC).hour == 8


async def test_a_step_with_no_lawful_minute_within_24_hours_fails_as_before(runtime, tenant):
    at(runtime, next_day(5, 20, 30, CENTRAL))  # a Saturday evening in Mississippi
    await sendable(runtime, tenant)
    await add_consent(runtime, tenant, JACKSON)
    enrolment_id, _ = await enrol(runtime, tenant, TEXT_STEP, JACKSON)
    await tick(runtime)
    (run,) = await step_runs(runtime, enrolment_id)
    assert run["outcome"] == "blocked" and "quiet_hours" in run["detail"]
    assert (await enrolment_row(runtime, enrolment_id))["status"] == "completed"


async def test_the_ai_text_step_sends_the_ai_s_text_as_the_responder(runtime, tenant):
    clock = at(runtime, next_day(2, 11, 0, PACIFIC))
    await sendable(runtime, tenant)
    steps = [{"type": "ai_text", "brief": "Our open house is Saturday 11-2. Want to stop by?"}]
    enrolment_id, contact_id = await enrol(runtime, tenant, steps, SAN_FRANCISCO, RESPONDER)
    await tick(runtime)
    (run,) = await step_runs(runtime, enrolment_id)
    assert run["outcome"] == "done" and "AI text queued" in run["detail"]
    (row,) = await outreach_rows(runtime, tenant)
    assert (row["kind"], row["enrolment_id"], row["enrolment_step"]) == (
        "automation",
        enrolment_id,
        0,
    )
    await drive(runtime)
    (sent,) = await texts_to(runtime, tenant, SAN_FRANCISCO)
    assert sent["ai_generated"] is True and sent["contact_id"] == contact_id
    assert sent["body"].startswith(DISCLOSURE + " ")
    assert "open house is Saturday" in sent["body"] and "Reply STOP to opt out." in sent["body"]
    clock.advance(hours=1)
    await drive(runtime)
    assert len(await texts_to(runtime, tenant, SAN_FRANCISCO)) == 1


async def test_an_ai_text_step_needs_a_responder(runtime, tenant):
    with pytest.raises(AdminError, match="responder"):
        await load(
            runtime,
            tenant.id,
            {"automations": [{"name": "Nurture", "steps": [{"type": "ai_text", "brief": "Hi"}]}]},
        )
