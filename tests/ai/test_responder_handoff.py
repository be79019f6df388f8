"""A handoff a person can act on, end to end: a real Chat Completions server on loopback
(tests/ai_support.py), the provider callback and the worker on a frozen clock, on SQLite
and PostgreSQL (docs/ai.md, "Handoff").

- the task goes to the contact's owner, else the persona's handoff_assignee, due
  handoff_minutes inside the showing hours (a Saturday night's is due Monday morning),
  with a priority from the model's urgency, a title naming the contact and the reason,
  and a summary masked by value;
- `ai.handoff` reaches a webhook subscription, with the task;
- the persona's texts name the contact's owner (`{agent_name}`), else the workspace;
- an answer with neither a reply nor a handoff leaves `ai_skipped`; two in a row hand off.
"""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import orjson
import pytest

from homebase.ai import handoff, showings
from homebase.automations import persona_texts
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import FrozenClock
from homebase.kit.errors import AdminError
from homebase.workspaces import service as workspaces
from tests.automations_support import PHONE, contact
from tests.messaging_support import add_consent, add_sender
from tests.responder_support import (
    RESPONDER,
    TWILIO,
    ai_jobs,
    drive,
    load,
    outbound,
    text_in,
)
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe

ZONE = ZoneInfo("America/New_York")  # the workspace's default time zone
NIGHT_OWL = "Can a real person call me at (415) 555-0199 or write to bella.ruiz@example.com?"


@pytest.fixture
def settings_overrides(chat_server):
    return {
        **TWILIO,
        "ai_provider": "openai",
        "ai_base_url": chat_server.base_url,
        "ai_timeout_seconds": 5,
        "ai_lease_seconds": 6,
        "ai_retry_unit_seconds": 0,
    }


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


def next_day(weekday: int) -> date:
    """The first such weekday (0: Monday) from tomorrow on, in the workspace's zone."""
    day = (datetime.now(UTC) + timedelta(days=1)).astimezone(ZONE).date()
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return day


def local(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=ZONE)


def at(runtime, moment: datetime) -> FrozenClock:
    runtime.clock = FrozenClock(moment.astimezone(UTC))
    return runtime.clock


async def named_member(runtime, tenant, email: str, name: str) -> str:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        return (await workspaces.create_user(session, email=email, name=name))["id"]


async def workspace_name(runtime, tenant) -> str:
    async with runtime.db.transaction(write=False) as connection:
        own = await TenantSession(connection, tenant.id, clock=runtime.clock).workspace()
        return str(own["name"])


async def lead_of(runtime, tenant, *, owned: bool, **persona) -> tuple[str, dict[str, str]]:
    """An approved number, consent for PHONE, two members (Maya Chen, Sam Lee), a
    responder persona whose handoff_assignee is Sam, and Bella Ruiz, owned by Maya when
    `owned`: (the contact's id, the members' ids by first name)."""
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, PHONE)
    members = {
        "maya": await named_member(runtime, tenant, "maya@example.com", "Maya Chen"),
        "sam": await named_member(runtime, tenant, "sam@example.com", "Sam Lee"),
    }
    await load(
        runtime,
        tenant,
        {"personas": [{**RESPONDER, "handoff_assignee": members["sam"], **persona}]},
    )
    owner = members["maya"] if owned else None
    return await contact(tenant, first_name="Bella", last_name="Ruiz", owner_id=owner), members


async def tasks_of(tenant, contact_id: str) -> list[dict]:
    response = await tenant.get("/v1/tasks", params={"contact_id": contact_id})
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def timeline(tenant, contact_id: str, kind: str) -> list[dict]:
    response = await tenant.get(f"/v1/contacts/{contact_id}/events", params={"limit": 200})
    assert response.status_code == 200, response.text
    return [event for event in response.json()["data"] if event["type"] == kind]


def due(task: dict) -> datetime:
    return datetime.fromisoformat(task["due_at"].replace("Z", "+00:00"))


async def test_a_saturday_night_handoff_is_the_owner_s_task_due_monday_morning(
    runtime, client, tenant, chat_server, receiver
):
    saturday = next_day(5)
    at(runtime, local(saturday, 22))
    contact_id, members = await lead_of(
        runtime, tenant, owned=True, handoff_reply="Thanks! {agent_first_name} will call you."
    )
    hook = await subscribe(tenant, receiver.url, ["ai.handoff"])
    await text_in(client, NIGHT_OWL)
    await drive(runtime)

    assert chat_server.recorded() == []  # the service's own reading handed off
    (task,) = await tasks_of(tenant, contact_id)
    assert task["assignee_id"] == members["maya"]
    # 15 minutes of showing hours (Monday to Saturday, 09:00-18:00): none left on
    # Saturday night, none on Sunday.
    assert due(task) == local(saturday + timedelta(days=2), 9, 15)
    assert (task["title"], task["priority"], task["source"]) == (
        "Call Bella Ruiz: asked for a person",
        "normal",
        "ai",
    )
    wants, learned, promised, reason = task["notes"].splitlines()
    assert wants.startswith("Wants: Can a real person call me at (***) ***-0199")
    assert "555-0199" not in task["notes"] and "bella.ruiz" not in task["notes"]
    assert learned == "Learned: stage LEAD"
    assert promised == 'Promised: told them "Thanks! Maya will call you."'
    assert reason == "Reason: asked_for_person"
    (holding,) = await outbound(tenant)
    assert "Thanks! Maya will call you." in holding["body"]

    (request,) = await receiver.wait_for(1)
    assert request.headers["x-webhook-event"] == "ai.handoff"
    body = orjson.loads(request.body)
    assert body["event"] == "ai.handoff"
    data = body["data"]
    assert (data["task_id"], data["contact_id"], data["assignee_id"]) == (
        task["id"],
        contact_id,
        members["maya"],
    )
    assert (data["reason"], data["urgency"], data["priority"]) == (
        "asked_for_person",
        None,
        "normal",
    )
    assert data["summary"] == "\n".join((wants, learned, promised))
    assert data["due_at"] == task["due_at"]
    (job,) = await ai_jobs(runtime, tenant)
    assert data["ai_job_id"] == job["id"]
    (entry,) = await timeline(tenant, contact_id, "ai_handoff")
    assert entry["data"]["task_id"] == task["id"]
    assert hook["event_types"] == ["ai.handoff"]


async def test_without_an_owner_the_assignee_gets_it_at_the_model_s_urgency(
    runtime, client, tenant, chat_server
):
    tuesday = next_day(1)
    at(runtime, local(tuesday, 17, 50))
    contact_id, members = await lead_of(runtime, tenant, owned=False, handoff_minutes=30)
    chat_server.respond_with(
        json_object={
            "reply": None,
            "handoff": True,
            "handoff_reason": "Ready to offer tonight, call (415) 555-0199",
            "urgency": "high",
        }
    )
    await text_in(client, "we'd offer 550 if they take it")
    await drive(runtime)

    (task,) = await tasks_of(tenant, contact_id)
    assert task["assignee_id"] == members["sam"]
    assert task["priority"] == "high"
    assert task["title"] == "Call Bella Ruiz: the assistant handed off"
    # 30 minutes: the 10 left on Tuesday, then 20 on Wednesday.
    assert due(task) == local(tuesday + timedelta(days=1), 9, 20)
    assert task["notes"].startswith("Wants: Ready to offer tonight, call (***) ***-0199\n")
    assert "555-0199" not in task["notes"]


PLACEHOLDERS = {
    "disclosure": "Automated assistant for {agent_name} ({agent_first_name}), {workspace_name}.",
    "signature": "- {persona_name}",
}


@pytest.mark.parametrize("owned", [True, False])
async def test_the_disclosure_names_the_owner_else_the_workspace(
    runtime, client, tenant, chat_server, owned
):
    at(runtime, local(next_day(1), 11))
    contact_id, _ = await lead_of(runtime, tenant, owned=owned, **PLACEHOLDERS)
    chat_server.respond_with(json_object={"reply": "Hi Bella!", "handoff": False})
    await text_in(client, "hi, is the Elm St house still for sale?")
    await drive(runtime)
    name = await workspace_name(runtime, tenant)
    agent = "Maya Chen (Maya)" if owned else f"{name} ({name})"
    (sent,) = await outbound(tenant)
    assert sent["contact_id"] == contact_id
    assert sent["body"] == f"Automated assistant for {agent}, {name}. Hi Bella!\n- Ava"


async def test_an_unknown_placeholder_is_refused_naming_the_field(runtime, tenant):
    for field in ("disclosure", "handoff_reply", "signature"):
        with pytest.raises(AdminError) as refused:
            await load(runtime, tenant, {"personas": [{**RESPONDER, field: "Hi {agent_nick}"}]})
        assert str(refused.value).startswith(f"personas[0].{field}: "), str(refused.value)
        assert "{agent_name}" in str(refused.value) and "agent_nick" not in str(refused.value)


async def test_no_reply_leaves_ai_skipped_and_twice_in_a_row_hands_off(
    runtime, client, tenant, chat_server
):
    at(runtime, local(next_day(2), 10))
    contact_id, members = await lead_of(runtime, tenant, owned=True)
    chat_server.respond_with(json_object={"reply": None, "handoff": False, "handoff_reason": ""})
    await text_in(client, "hmm, maybe")
    await drive(runtime)
    (skipped,) = await timeline(tenant, contact_id, "ai_skipped")
    assert skipped["data"]["reason"] == "no_reply"
    assert "neither a reply nor a handoff" in skipped["title"]
    assert await tasks_of(tenant, contact_id) == []
    assert [job["outcome"] for job in await ai_jobs(runtime, tenant)] == ["no_reply"]

    await text_in(client, "still there?")
    await drive(runtime)
    assert len(chat_server.recorded()) == 2
    jobs = await ai_jobs(runtime, tenant)
    assert [(job["status"], job["outcome"]) for job in jobs] == [
        ("skipped", "no_reply"),
        ("handed_off", "no_reply"),
    ]
    assert len(await timeline(tenant, contact_id, "ai_skipped")) == 1
    (task,) = await tasks_of(tenant, contact_id)
    assert task["title"] == "Call Bella Ruiz: the assistant had no answer twice"
    assert task["assignee_id"] == members["maya"]
    assert task["notes"].startswith("Wants: hmm, maybe / still there?\n")
    person = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert person["ai_auto_response_paused_reason"] == "handoff"


# The engines, on fixed times.
HOURS = showings.hours_of(None)  # Monday to Saturday, 09:00-18:00


@pytest.mark.parametrize(
    ("weekday", "clock", "minutes", "expected"),
    [
        (1, (10, 0), 15, (0, 10, 15)),  # inside the hours: plain minutes
        (1, (17, 50), 30, (1, 9, 20)),  # 10 minutes Tuesday, 20 Wednesday
        (5, (22, 0), 15, (2, 9, 15)),  # Saturday night: Monday 09:15
        (6, (12, 0), 15, (1, 9, 15)),  # Sunday has no hours
        (2, (6, 30), 15, (0, 9, 15)),  # before opening
    ],
)
def test_due_within_hours(weekday, clock, minutes, expected):
    day = date(2026, 11, 30) + timedelta(days=weekday)  # 2026-11-30 is a Monday
    now = local(day, *clock).astimezone(UTC)
    days, hour, minute = expected
    assert showings.due_within_hours(now, ZONE, HOURS, minutes) == local(
        day + timedelta(days=days), hour, minute
    )


def test_due_without_any_hours_counts_plain_minutes():
    now = datetime(2026, 12, 5, 3, 0, tzinfo=UTC)
    assert showings.due_within_hours(now, ZONE, {}, 15) == now + timedelta(minutes=15)


def test_priority_title_and_fill():
    assert [handoff.priority(u) for u in ("low", "normal", "high", "HIGH", None, "asap")] == [
        "low",
        "normal",
        "high",
        "high",
        "normal",
        "normal",
    ]
    nameless = {"first_name": None, "last_name": "  "}
    assert handoff.title(nameless, "legal") == "Call the lead: asked a legal question"
    signer = {
        "agent_first_name": "Maya",
        "agent_name": "Maya Chen",
        "persona_name": "Ava",
        "workspace_name": "Lee Realty",
    }
    assert persona_texts.fill("{agent_name} {nick} {0} {", signer) == "{agent_name} {nick} {0} {"
    assert persona_texts.fill("{agent_name}, {nick}", signer) == "Maya Chen, {nick}"
