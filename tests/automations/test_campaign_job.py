"""The campaign job: its pace (an injectable clock), the rules it skips by, the reach
seam's outcomes, crash safety, and the worker's job list."""

import asyncio
from datetime import timedelta

import pytest

from homebase.ai import outreach
from homebase.automations import campaign_job, reach
from homebase.automations.campaign_schemas import CampaignSkipReason
from homebase.db.engine import Database
from homebase.ratelimit import MemoryLimiter
from homebase.root.jobs import JOBS
from homebase.runtime import Runtime
from tests.automations_support import contact, count, events, frozen, load
from tests.campaigns_support import (
    ENROLMENTS,
    campaign,
    enrolments,
    inbound,
    opt_out,
    phone,
    plug,
    reachable,
    run,
)
from tests.conftest import test_settings as settings_for
from tests.outreach_support import outreach_rows, texting_workspace, texts_to
from tests.responder_support import TWILIO, drive, text_in
from tests.voice_support import voice_calls, voice_workspace


async def enrol(tenant, campaign_id: str, contact_ids: list[str]) -> None:
    response = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": contact_ids}
    )
    assert response.status_code == 202, response.text


async def reached(runtime, campaign_id: str) -> list[dict]:
    return [row for row in await enrolments(runtime, campaign_id) if row["state"] == "reached"]


async def test_fifty_contacts_are_reached_at_the_rate_spread_evenly(runtime, tenant, monkeypatch):
    clock = frozen(runtime)
    campaign_id = await campaign(runtime, tenant, rate_per_hour=10)  # one every 360 s
    contact_ids = [await reachable(runtime, tenant, index) for index in range(50)]
    await enrol(tenant, campaign_id, contact_ids)
    sender = plug(monkeypatch)
    start = clock()
    for step in range(50):
        await run(runtime)
        assert len(await reached(runtime, campaign_id)) == step + 1
        clock.advance(seconds=359)
        await run(runtime)  # the next slot has not come
        assert len(await reached(runtime, campaign_id)) == step + 1
        clock.advance(seconds=1)
    rows = sorted(await reached(runtime, campaign_id), key=lambda row: row["reached_at"])
    assert [row["reached_at"] - start for row in rows] == [
        timedelta(seconds=360 * index) for index in range(50)
    ]
    assert sorted(contact_id for contact_id, _ in sender.calls) == sorted(contact_ids)
    assert {row["reference"] for row in rows} == {f"ftj_{index}" for index in range(1, 51)}
    runs = await events(runtime, tenant.id, "automation.run")
    assert len(runs) == 50
    assert {event["campaign_id"] for event in runs} == {campaign_id}
    assert {event["status"] for event in runs} == {"reached"}
    assert await run(runtime) == 0  # nothing pending: the campaign is not claimed


@pytest.fixture
def settings_overrides():
    return dict(TWILIO)  # the provider's signed callbacks: a lead's reply comes in by them


async def test_a_campaign_reaches_its_contact_with_an_ai_text_about_its_goal(
    runtime, client, tenant
):
    frozen(runtime)  # inside the lawful hours of a San Francisco number
    await texting_workspace(runtime, tenant, first_touch="off")  # the responder persona
    campaign_id = await campaign(runtime, tenant)
    contact_id = await reachable(runtime, tenant, 1)
    await enrol(tenant, campaign_id, [contact_id])
    assert await campaign_job.work_waiting(runtime)
    assert await run(runtime) == 1
    [enrolment] = await enrolments(runtime, campaign_id)
    [row] = await outreach_rows(runtime, tenant)
    assert (enrolment["state"], row["kind"], row["enrolment_id"]) == (
        "reached",
        "campaign",
        enrolment["id"],
    )
    assert len(await events(runtime, tenant.id, "automation.run")) == 1
    await drive(runtime)
    [sent] = await texts_to(runtime, tenant, phone(1))
    assert "open house at 12 Elm St" in sent["body"] and "Reply STOP to opt out." in sent["body"]
    assert sent["ai_generated"] is True
    assert (await outreach_rows(runtime, tenant))[0]["status"] == "sent"
    # The lead answers: the responder takes over, and the campaign counts a reply.
    await text_in(client, "Yes! What time does it start?", sender=phone(1))
    await drive(runtime)
    texts = await texts_to(runtime, tenant, phone(1))
    assert len(texts) == 2 and texts[1]["ai_generated"] is True
    listed = (await tenant.get(f"/v1/campaigns/{campaign_id}/contacts")).json()["data"]
    assert [item["state"] for item in listed] == ["replied"]
    counts = (await tenant.get(f"/v1/campaigns/{campaign_id}")).json()["counts"]
    assert (counts["reached"], counts["replied"]) == (1, 1)
    # Enrolled again: the contact is not reached twice.
    await enrol(tenant, campaign_id, [contact_id])
    assert await run(runtime) == 0


async def test_a_text_given_up_before_it_goes_out_skips_the_enrolment(runtime, client, tenant):
    frozen(runtime)
    await texting_workspace(runtime, tenant, first_touch="off")
    campaign_id = await campaign(runtime, tenant)
    contact_id = await reachable(runtime, tenant, 1)
    await enrol(tenant, campaign_id, [contact_id])
    assert await run(runtime) == 1  # reached: its text queued
    await text_in(client, "STOP", sender=phone(1))  # before the worker sends it
    await drive(runtime)
    texts = await texts_to(runtime, tenant, phone(1))
    assert [text["ai_generated"] for text in texts] == [False]  # the STOP's confirmation
    [row] = await outreach_rows(runtime, tenant)
    assert (row["status"], row["outcome"]) == ("skipped", "opted_out")
    [enrolment] = await enrolments(runtime, campaign_id)
    assert (enrolment["state"], enrolment["skip_reason"], enrolment["reached_at"]) == (
        "skipped",
        "suppressed",
        None,
    )
    counts = (await tenant.get(f"/v1/campaigns/{campaign_id}")).json()["counts"]
    assert counts["reached"] == 0 and counts["skipped_by_reason"]["suppressed"] == 1


async def test_a_call_campaign_places_an_ai_call_through_the_calls_gates(runtime, tenant):
    frozen(runtime)  # inside a San Francisco number's lawful hours
    contact_id = await voice_workspace(runtime, tenant)  # a voice persona, AI-voice consent
    campaign_id = await campaign(runtime, tenant, channel="call")
    await enrol(tenant, campaign_id, [contact_id])
    await run(runtime)
    [enrolment] = await enrolments(runtime, campaign_id)
    [call] = await voice_calls(runtime, tenant)
    assert (enrolment["state"], enrolment["reference"]) == ("reached", call["id"])
    assert (call["status"], call["reason"], call["contact_id"]) == (
        "queued",
        "campaign",
        contact_id,
    )
    assert await outreach_rows(runtime, tenant) == []  # a call, not a text


async def test_a_call_campaign_skips_a_contact_the_calls_gates_refuse(runtime, tenant):
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant, voice=False)  # the persona does not call
    campaign_id = await campaign(runtime, tenant, channel="call")
    await enrol(tenant, campaign_id, [contact_id])
    await run(runtime)
    [enrolment] = await enrolments(runtime, campaign_id)
    assert (enrolment["state"], enrolment["skip_reason"]) == ("skipped", "refused")
    [call] = await voice_calls(runtime, tenant)
    assert call["status"] == "refused" and call["error"].startswith("voice_off:")


async def test_skips_are_recorded_by_reason(runtime, tenant, monkeypatch):
    clock = frozen(runtime)
    now = clock()
    campaign_id = await campaign(runtime, tenant, rate_per_hour=3600)
    cases = {
        "ok": await reachable(runtime, tenant, 1),
        "no_phone": await contact(tenant, phone=None),
        "no_consent": await contact(tenant, phone=phone(2)),
        "suppressed": await reachable(runtime, tenant, 3),
        "ai_paused": await reachable(runtime, tenant, 4),
        "recent_conversation": await reachable(runtime, tenant, 5),
        "dnc_registry": await reachable(runtime, tenant, 6),
        "dnc_consent_newer": await reachable(runtime, tenant, 7),
        "erased": await reachable(runtime, tenant, 8),
    }
    await opt_out(runtime, tenant, phone(3))
    paused = await tenant.post(f"/v1/contacts/{cases['ai_paused']}/ai/pause")
    assert paused.status_code in (200, 201, 204), paused.text
    await inbound(
        runtime, tenant, cases["recent_conversation"], phone(5), at=now - timedelta(hours=23)
    )
    # consent is captured a day ago (add_consent): older than one registration, newer than the other
    await load(
        runtime,
        tenant.id,
        {
            "dnc_registry": [
                {"phone": phone(6), "registered_at": (now - timedelta(hours=1)).isoformat()},
                {"phone": phone(7), "registered_at": "2019-05-01"},
            ]
        },
    )
    await enrol(tenant, campaign_id, list(cases.values()))
    await tenant.delete(f"/v1/contacts/{cases['erased']}")
    plug(monkeypatch)
    for _ in range(3):
        await run(runtime)
        clock.advance(seconds=1)
    states = {row["contact_id"]: row for row in await enrolments(runtime, campaign_id)}
    expected = {
        "ok": ("reached", None),
        "dnc_consent_newer": ("reached", None),
        **{
            name: ("skipped", name)
            for name in (
                "no_phone",
                "no_consent",
                "suppressed",
                "ai_paused",
                "recent_conversation",
                "dnc_registry",
                "erased",
            )
        },
    }
    assert {
        name: (states[contact_id]["state"], states[contact_id]["skip_reason"])
        for name, contact_id in cases.items()
    } == expected
    counts = (await tenant.get(f"/v1/campaigns/{campaign_id}")).json()["counts"]
    assert counts["skipped_by_reason"] == {
        name: 1 for name, (state, _) in expected.items() if state == "skipped"
    }
    assert (counts["reached"], counts["skipped"], counts["pending"]) == (2, 7, 0)


async def test_a_call_campaign_skips_a_number_that_asked_not_to_be_called(
    runtime, tenant, monkeypatch
):
    from homebase.calls import revocations
    from homebase.db.tenancy import TenantSession

    frozen(runtime)
    campaign_id = await campaign(runtime, tenant, channel="call")
    contact_id = await reachable(runtime, tenant, 1)
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await revocations.revoke(
            session, address=phone(1), contact_id=contact_id, phrase="don't call me", evidence={}
        )
    await enrol(tenant, campaign_id, [contact_id])
    plug(monkeypatch)
    await run(runtime)
    [row] = await enrolments(runtime, campaign_id)
    assert (row["state"], row["skip_reason"]) == ("skipped", "suppressed")


async def test_an_ended_campaign_skips_what_is_pending(runtime, tenant, monkeypatch):
    frozen(runtime)
    campaign_id = await campaign(runtime, tenant, ends_at="2020-01-01T00:00:00Z")
    contact_ids = [await reachable(runtime, tenant, index) for index in range(3)]
    await enrol(tenant, campaign_id, contact_ids)
    sender = plug(monkeypatch)
    await run(runtime)
    rows = await enrolments(runtime, campaign_id)
    assert {(row["state"], row["skip_reason"]) for row in rows} == {("skipped", "campaign_ended")}
    assert sender.calls == []


async def test_the_seam_s_refusals_and_deferrals(runtime, tenant, monkeypatch):
    clock = frozen(runtime)
    campaign_id = await campaign(runtime, tenant, rate_per_hour=60)
    first, second = [await reachable(runtime, tenant, index) for index in range(2)]
    await enrol(tenant, campaign_id, [first])
    sender = plug(monkeypatch, reach.Refused(CampaignSkipReason.attempt_limit))
    await run(runtime)
    [row] = await enrolments(runtime, campaign_id)
    assert (row["state"], row["skip_reason"]) == ("skipped", "attempt_limit")

    await enrol(tenant, campaign_id, [second])
    sender.outcome = reach.Deferred(clock() + timedelta(hours=2))
    await run(runtime)
    deferred = [row for row in await enrolments(runtime, campaign_id) if row["state"] == "pending"]
    assert [row["due_at"] for row in deferred] == [clock() + timedelta(hours=2)]
    assert await run(runtime) == 0  # not due again before then
    sender.outcome = None  # Reached
    clock.advance(hours=2)
    await run(runtime)
    assert len(await reached(runtime, campaign_id)) == 1
    assert len(sender.calls) == 3


async def test_a_crash_in_the_reach_loses_nothing_and_reaches_once(runtime, tenant, monkeypatch):
    """The worker dies inside the turn (an error out of the turn's transaction): nothing
    of the turn is kept, and the contact is reached once afterwards."""
    frozen(runtime)
    campaign_id = await campaign(runtime, tenant)
    skipped = await contact(tenant, phone=None)
    contact_id = await reachable(runtime, tenant, 1)
    await enrol(tenant, campaign_id, [skipped, contact_id])
    original = campaign_job._reached

    async def dying(*args, **kwargs):
        await original(*args, **kwargs)  # the reach's writes are made, not committed
        raise SystemExit("the worker died before its commit")

    monkeypatch.setattr(campaign_job, "_reached", dying)
    sender = plug(monkeypatch)
    with pytest.raises(SystemExit):
        await run(runtime)
    rows = await enrolments(runtime, campaign_id)
    assert {row["state"] for row in rows} == {"pending"}  # the skip rolled back too
    assert await events(runtime, tenant.id, "automation.run") == []
    monkeypatch.setattr(campaign_job, "_reached", original)
    await run(runtime)
    await run(runtime)
    assert [row["state"] for row in await reached(runtime, campaign_id)] == ["reached"]
    assert len(await events(runtime, tenant.id, "automation.run")) == 1
    assert sender.calls[-1] == (contact_id, campaign_id)


async def test_a_sender_that_raises_is_rolled_back_and_retried(runtime, tenant, monkeypatch):
    clock = frozen(runtime)
    campaign_id = await campaign(runtime, tenant)
    skipped = await contact(tenant, phone=None)
    contact_id = await reachable(runtime, tenant, 1)
    await enrol(tenant, campaign_id, [skipped, contact_id])

    async def failing(session, enrolment, campaign):
        await session.execute(  # a write of the sender's, undone with it
            session.update(ENROLMENTS)
            .where(ENROLMENTS.c.id == enrolment["id"])
            .values(reference="ftj_written_by_the_failing_sender")
        )
        raise RuntimeError("the provider of the first touch is down")

    monkeypatch.setattr(outreach, "campaign_touch", failing)
    await run(runtime)
    states = {row["contact_id"]: row for row in await enrolments(runtime, campaign_id)}
    assert len(states) == 2
    assert (states[skipped]["state"], states[skipped]["skip_reason"]) == ("skipped", "no_phone")
    assert (states[contact_id]["state"], states[contact_id]["reference"]) == ("pending", None)
    assert states[contact_id]["due_at"] == clock() + campaign_job.RETRY
    sender = plug(monkeypatch)
    assert await run(runtime) == 0  # not before the retry
    clock.advance(minutes=5)
    await run(runtime)
    assert sender.calls == [(contact_id, campaign_id)]
    assert len(await events(runtime, tenant.id, "automation.run")) == 1


async def test_the_worker_runs_the_campaign_job(runtime, tenant, monkeypatch):
    frozen(runtime)
    [job] = [job for job in JOBS if job.name == "automations.campaigns"]
    campaign_id = await campaign(runtime, tenant)
    await enrol(tenant, campaign_id, [await reachable(runtime, tenant, 1)])
    plug(monkeypatch)
    assert await job.run(runtime) == 1
    assert len(await reached(runtime, campaign_id)) == 1
    assert await count(runtime, ENROLMENTS, state="reached") == 1


async def test_draft_and_other_workspaces_campaigns_are_their_own(
    runtime, tenant, other_tenant, monkeypatch
):
    frozen(runtime)
    draft = await campaign(runtime, tenant, status="draft")
    active = await campaign(runtime, other_tenant)
    await enrol(tenant, draft, [await reachable(runtime, tenant, 1)])
    await enrol(other_tenant, active, [await reachable(runtime, other_tenant, 2)])
    sender = plug(monkeypatch)
    await run(runtime)
    assert sender.calls == [(sender.calls[0][0], active)]
    assert [row["state"] for row in await enrolments(runtime, draft)] == ["pending"]


async def test_two_workers_on_postgresql_reach_each_contact_once(
    backend, runtime, tenant, database_url, monkeypatch
):
    if backend != "postgres":
        pytest.skip("two concurrent workers need PostgreSQL's row locks (SQLite serializes)")
    clock = frozen(runtime)
    campaign_ids = [await campaign(runtime, tenant, rate_per_hour=3600) for _ in range(4)]
    for number, campaign_id in enumerate(campaign_ids):
        contact_ids = [await reachable(runtime, tenant, number * 10 + index) for index in range(6)]
        await enrol(tenant, campaign_id, contact_ids)
    sender = plug(monkeypatch)
    settings = settings_for(database_url)
    workers = [
        Runtime(settings=settings, db=Database(database_url, pool_size=2), limiter=MemoryLimiter())
        for _ in range(2)
    ]
    for worker in workers:
        worker.clock = clock

    async def loop(worker: Runtime) -> int:
        done = 0
        while await campaign_job.run_next(worker):
            done += 1
            await asyncio.sleep(0)
        return done

    try:
        for _ in range(6):  # one slot a campaign each second
            await asyncio.gather(*(loop(worker) for worker in workers))
            clock.advance(seconds=1)
    finally:
        for worker in workers:
            await worker.close()
    reached_ids = [contact_id for contact_id, _ in sender.calls]
    assert len(reached_ids) == len(set(reached_ids)) == 24
    assert len(await events(runtime, tenant.id, "automation.run")) == 24
    assert await count(runtime, ENROLMENTS, state="reached") == 24
