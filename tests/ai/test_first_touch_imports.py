"""An import texts its leads first only when it asks (`"first_touch": true`), and then at
most HOMEBASE_AI_FIRST_TOUCH_PER_MINUTE a minute per workspace (docs/ai.md, "First touch
and follow-ups"), on SQLite and PostgreSQL; time moves only on the injectable clock."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.imports_support import job, start
from tests.outreach_support import CONSENT, DELAY, at, outreach_rows, texting_workspace
from tests.responder_support import TWILIO, drive, outbound

PER_MINUTE = 4
LEADS = 10


@pytest.fixture
def settings_overrides():
    return {**TWILIO, "ai_first_touch_per_minute": PER_MINUTE}


def rows(count: int) -> list[dict]:
    return [
        {"phone": f"+1415555{200 + number:04d}", "source": "Open house", "consent": CONSENT}
        for number in range(count)
    ]


def wednesday_11_pacific() -> datetime:
    day = datetime.now(UTC).date() + timedelta(days=2)
    while day.weekday() != 2:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, 19, 0, tzinfo=UTC)  # 11:00 PST


async def test_an_import_texts_nobody_unless_it_asks(runtime, tenant):
    clock = at(runtime, wednesday_11_pacific())
    await texting_workspace(runtime, tenant)
    started = await start(tenant, {"object": "leads", "rows": rows(3)})
    assert started["first_touch"] is False
    await drive(runtime)
    assert (await job(tenant, started["id"]))["counts"]["created"] == 3
    clock.advance(hours=1)
    await drive(runtime)
    assert await outbound(tenant) == []
    assert await outreach_rows(runtime, tenant) == []


async def test_an_import_that_asks_texts_at_its_rate(runtime, tenant):
    clock = at(runtime, wednesday_11_pacific())
    began = clock()
    await texting_workspace(runtime, tenant)
    started = await start(tenant, {"object": "leads", "rows": rows(LEADS), "first_touch": True})
    assert started["first_touch"] is True
    await drive(runtime)
    queued = await outreach_rows(runtime, tenant)
    assert len(queued) == LEADS and {row["origin"] for row in queued} == {"import"}
    dues = sorted(row["due_at"] for row in queued)
    assert dues[0] >= began + timedelta(seconds=DELAY)
    for first, later in zip(dues, dues[PER_MINUTE:], strict=False):  # never more a minute
        assert later - first >= timedelta(minutes=1)
    clock.now = dues[0] + timedelta(seconds=59)
    await drive(runtime, rounds=60)
    assert len(await outbound(tenant)) == PER_MINUTE
    clock.now = dues[-1]
    await drive(runtime, rounds=60)
    sent = await outbound(tenant)
    assert len(sent) == LEADS and all(m["ai_generated"] for m in sent)
    assert len({m["to"] for m in sent}) == LEADS
