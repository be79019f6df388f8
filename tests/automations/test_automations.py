"""Automations, personas and campaigns over HTTP: lists, fixtures, enrol, and the engine
running enrolments end to end (messages through the compliance gates, tasks, stages)."""

import pytest

from homebase.automations import engine
from homebase.messaging import jobs as messaging_jobs
from tests.automations_support import (
    FULL_STEPS,
    MESSAGES,
    PERSONA,
    PHONE,
    STEP_RUNS,
    TASKS,
    automation,
    contact,
    count,
    events,
    frozen,
    load,
    member,
    sendable,
    step_runs,
    tick,
)
from tests.messaging_support import add_consent, add_sender, set_status
from tests.support import assert_error, failing_fields


async def test_lists_and_retrieval_are_the_workspaces_own(runtime, tenant, other_tenant):
    created = await load(
        runtime,
        tenant.id,
        {
            "personas": [
                PERSONA,
                {"ref": "max", "name": "Max", "tone": "direct", "channels": ["email"]},
            ],
            "automations": [
                {"ref": "flow", "name": "Flow", "description": "d", "steps": FULL_STEPS}
            ],
            "campaigns": [
                {
                    "name": "Spring",
                    "persona": "ava",
                    "automation": "flow",
                    "status": "active",
                    "audience": "Zillow buyers",
                }
            ],
        },
    )
    await automation(runtime, other_tenant)
    personas = (await tenant.get("/v1/personas")).json()
    assert [item["name"] for item in personas["data"]] == ["Max", "Ava"]
    assert personas["data"][1]["channels"] == ["SMS", "EMAIL"]
    automations = (await tenant.get("/v1/automations")).json()["data"]
    assert [item["id"] for item in automations] == created["automations"]
    steps = automations[0]["steps"]
    assert [step["type"] for step in steps] == ["send_message", "wait", "create_task", "move_stage"]
    assert steps[0]["persona_id"] == created["personas"][0] and steps[1]["days"] == 1
    campaign = (await tenant.get("/v1/campaigns")).json()["data"][0]
    assert (campaign["persona_id"], campaign["automation_id"], campaign["status"]) == (
        created["personas"][0],
        created["automations"][0],
        "active",
    )
    page = (await tenant.get("/v1/personas?limit=1&fields=name")).json()
    assert page["data"] == [{"id": created["personas"][1], "name": "Max"}] and page["has_more"]
    assert failing_fields(await tenant.get("/v1/campaigns?fields=nope")) == {"fields"}
    one = await tenant.get(f"/v1/automations/{created['automations'][0]}?fields=enabled")
    assert one.json() == {"id": created["automations"][0], "enabled": True}
    assert (await other_tenant.get("/v1/personas")).json()["data"][0]["id"] not in created[
        "personas"
    ]


async def test_scopes(make):
    reader = await make(["automations:read"])
    for path in ("/v1/automations", "/v1/personas", "/v1/campaigns"):
        assert (await reader.get(path)).status_code == 200
    error = assert_error(
        await reader.post("/v1/automations/aut_x/enroll", json={"contact_id": "con_x"}),
        403,
        "insufficient_scope",
    )
    assert error["details"]["missing_scope"] == "automations:manage"
    others = await make(["contacts:write", "appointments:write", "messages:send"])
    for path in (
        "/v1/automations",
        "/v1/automations/aut_x",
        "/v1/automations/aut_x/enrolments",
        "/v1/personas",
        "/v1/personas/prs_x",
        "/v1/campaigns",
        "/v1/campaigns/cmp_x",
    ):
        error = assert_error(await others.get(path), 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "automations:read", path
    error = assert_error(
        await others.post("/v1/automations/aut_x/enroll", json={"contact_id": "con_x"}),
        403,
        "insufficient_scope",
    )
    assert error["details"]["missing_scope"] == "automations:manage"
    managers = await make(["automations:manage"])  # manage implies read
    for path in ("/v1/automations", "/v1/personas", "/v1/campaigns"):
        assert (await managers.get(path)).status_code == 200


async def test_enroll_is_durable_at_once_with_its_event(runtime, tenant):
    automation_id = await automation(runtime, tenant)
    contact_id = await contact(tenant)
    response = await tenant.post(
        f"/v1/automations/{automation_id}/enroll", json={"contact_id": contact_id}
    )
    assert response.status_code == 202, response.text
    enrolment = response.json()
    assert (enrolment["created"], enrolment["status"], enrolment["step_index"]) == (
        True,
        "active",
        0,
    )
    [event] = await events(runtime, tenant.id, "automation.run")
    assert event["id"] == enrolment["id"] and event["contact_id"] == contact_id
    assert event["automation_id"] == automation_id and event["steps"] == 4

    again = await tenant.post(
        f"/v1/automations/{automation_id}/enroll", json={"contact_id": contact_id}
    )
    assert again.status_code == 202
    assert again.json() == {**enrolment, "created": False}
    assert len(await events(runtime, tenant.id, "automation.run")) == 1
    listed = (await tenant.get(f"/v1/automations/{automation_id}/enrolments")).json()["data"]
    assert [item["id"] for item in listed] == [enrolment["id"]]
    timeline = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    assert "automation_enrolled" in {item.get("type") for item in timeline}


async def test_enroll_refusals_enrol_nothing(runtime, tenant, other_tenant):
    disabled = await automation(runtime, tenant, enabled=False)
    enabled = await automation(runtime, tenant)
    contact_id = await contact(tenant)
    error = assert_error(
        await tenant.post(f"/v1/automations/{disabled}/enroll", json={"contact_id": contact_id}),
        409,
        "automation_disabled",
    )
    assert error["details"] == {"automation_id": disabled}
    foreign_contact = await contact(other_tenant)
    response = await tenant.post(
        f"/v1/automations/{enabled}/enroll", json={"contact_id": foreign_contact}
    )
    assert failing_fields(response) == {"contact_id"}
    assert failing_fields(await tenant.post(f"/v1/automations/{enabled}/enroll", json={})) == {
        "contact_id"
    }
    assert_error(
        await tenant.post(
            "/v1/automations/aut_00000000000000000000000000/enroll", json={"contact_id": contact_id}
        ),
        404,
        "not_found",
    )
    await tenant.delete(f"/v1/contacts/{contact_id}")
    assert failing_fields(
        await tenant.post(f"/v1/automations/{enabled}/enroll", json={"contact_id": contact_id})
    ) == {"contact_id"}
    for automation_id in (disabled, enabled):
        listed = await tenant.get(f"/v1/automations/{automation_id}/enrolments")
        assert listed.json()["data"] == []
    assert await events(runtime, tenant.id, "automation.run") == []


@pytest.mark.parametrize("owned", [True, False])
async def test_the_persona_s_signature_names_the_owner_else_the_workspace(runtime, tenant, owned):
    """A persona's signature placeholders (docs/ai.md, "Personas and the model") are
    filled for an automation's message too: the contact's owner, else the workspace."""
    frozen(runtime)
    await sendable(runtime, tenant)
    persona = {**PERSONA, "signature": "- {agent_first_name} ({agent_name}), {workspace_name}"}
    created = await load(
        runtime,
        tenant.id,
        {"personas": [persona], "automations": [{"name": "Hello", "steps": [FULL_STEPS[0]]}]},
    )
    owner = await member(runtime, tenant) if owned else None
    contact_id = await contact(tenant, owner_id=owner)
    await _enrol(tenant, created["automations"][0], contact_id)
    await tick(runtime)
    [message] = (await tenant.get("/v1/messages")).json()["data"]
    signed = "- Agent (Agent), Test Realty" if owned else "- Test Realty (Test Realty), Test Realty"
    assert message["body"] == f"Hi Dana, still looking in Noe Valley?\n{signed}"


async def _enrol(tenant, automation_id: str, contact_id: str) -> str:
    response = await tenant.post(
        f"/v1/automations/{automation_id}/enroll", json={"contact_id": contact_id}
    )
    assert response.status_code == 202, response.text
    return response.json()["id"]


async def _enrolment(tenant, automation_id: str) -> dict:
    return (await tenant.get(f"/v1/automations/{automation_id}/enrolments")).json()["data"][0]


async def test_the_engine_runs_each_step_in_order_on_its_tick(runtime, tenant):
    clock = frozen(runtime)
    await sendable(runtime, tenant)
    automation_id = await automation(runtime, tenant)
    contact_id = await contact(tenant)
    enrolment_id = await _enrol(tenant, automation_id, contact_id)
    assert await count(runtime, MESSAGES) == 0  # nothing before the tick

    assert await tick(runtime) == 2  # the send, then the wait
    [message] = (await tenant.get("/v1/messages")).json()["data"]
    assert message["ai_generated"] is True and message["status"] == "QUEUED"
    assert message["body"] == "Hi Dana, still looking in Noe Valley?\n- Ava, Test Realty"
    state = await _enrolment(tenant, automation_id)
    assert state["step_index"] == 2 and state["status"] == "active"
    assert await tick(runtime) == 0  # waiting a day
    clock.advance(hours=23, minutes=59)
    assert await tick(runtime) == 0
    clock.advance(minutes=1)
    assert await tick(runtime) == 2  # the task, then the stage (which completes it)

    [task] = (await tenant.get("/v1/tasks")).json()["data"]
    assert (task["title"], task["contact_id"], task["source"]) == (
        "Call Dana Reyes",
        contact_id,
        "automation",
    )
    assert (await tenant.get(f"/v1/contacts/{contact_id}")).json()["stage"] == "NURTURE"
    [stage_event] = await events(runtime, tenant.id, "contact.stage_changed")
    assert stage_event == {"id": contact_id, "previous_stage": "LEAD", "stage": "NURTURE"}
    state = await _enrolment(tenant, automation_id)
    assert state["status"] == "completed" and state["next_run_at"] is None
    runs = await step_runs(runtime, enrolment_id)
    assert [(run["step_type"], run["outcome"]) for run in runs] == [
        ("send_message", "done"),
        ("wait", "done"),
        ("create_task", "done"),
        ("move_stage", "done"),
    ]
    assert runs[0]["message_id"] == message["id"] and runs[2]["task_id"] == task["id"]
    assert await tick(runtime) == 0


async def test_a_gate_refusal_is_recorded_failed_and_the_enrolment_goes_on(runtime, tenant):
    frozen(runtime)
    await sendable(runtime, tenant)
    steps = [FULL_STEPS[0], FULL_STEPS[3]]
    automation_id = await automation(runtime, tenant, steps)
    contact_id = await contact(tenant, phone="+14155550199")  # no consent for this number
    enrolment_id = await _enrol(tenant, automation_id, contact_id)
    await tick(runtime)
    [message] = (await tenant.get("/v1/messages")).json()["data"]
    assert (message["status"], message["ai_generated"]) == ("FAILED", True)
    runs = await step_runs(runtime, enrolment_id)
    assert runs[0]["outcome"] == "blocked" and "consent_missing" in runs[0]["detail"]
    assert runs[0]["message_id"] == message["id"] and runs[1]["outcome"] == "done"
    assert (await _enrolment(tenant, automation_id))["status"] == "completed"


async def _suppress(runtime, tenant):
    await load(runtime, tenant.id, {"suppressions": [{"address": PHONE}]})


async def _suspend(runtime, tenant):
    await set_status(runtime, tenant, "suspended")


@pytest.mark.parametrize(
    ("utc_hour", "a2p_status", "setup", "reason"),
    [
        (19, "approved", _suspend, "account_suspended"),
        (19, "approved", _suppress, "opted_out"),
        (19, "pending", None, "a2p_not_approved"),
        # quiet_hours waits for the next lawful minute instead:
        # tests/automations/test_automation_texts_wait.py
    ],
)
async def test_every_gate_refuses_an_ai_text(runtime, tenant, utc_hour, a2p_status, setup, reason):
    """The engine's sends take the POST /messages path: each gate refuses an AI text as it
    refuses any text (consent_missing: the test above), recorded FAILED, ai_generated."""
    frozen(runtime, utc_hour)
    await add_sender(runtime, tenant, a2p_status=a2p_status)
    await add_consent(runtime, tenant, PHONE)
    automation_id = await automation(runtime, tenant, [FULL_STEPS[0]])
    enrolment_id = await _enrol(tenant, automation_id, await contact(tenant))
    if setup is not None:
        await setup(runtime, tenant)
    await tick(runtime)
    [run] = await step_runs(runtime, enrolment_id)
    assert run["outcome"] == "blocked" and run["detail"].startswith(f"Blocked ({reason})")
    [message] = (await tenant.get("/v1/messages")).json()["data"]
    assert (message["id"], message["status"], message["ai_generated"]) == (
        run["message_id"],
        "FAILED",
        True,
    )
    assert message["blocked_reason"] == reason
    assert await messaging_jobs.send_due(runtime) == 0  # nothing reaches the provider
    assert await events(runtime, tenant.id, "message.sent") == []


async def test_a_delivered_ai_text_fires_message_sent_with_ai_generated(runtime, tenant):
    frozen(runtime)
    await sendable(runtime, tenant)
    automation_id = await automation(runtime, tenant, [FULL_STEPS[0]])
    await _enrol(tenant, automation_id, await contact(tenant))
    await tick(runtime)
    assert await events(runtime, tenant.id, "message.sent") == []  # queued, not yet sent
    assert await messaging_jobs.send_due(runtime) == 1
    [message] = (await tenant.get("/v1/messages")).json()["data"]
    assert (message["status"], message["ai_generated"]) == ("SENT", True)
    [event] = await events(runtime, tenant.id, "message.sent")
    assert event["id"] == message["id"] and event["ai_generated"] is True
    assert event["channel"] == "SMS" and event["to"] != PHONE and event["to"].endswith("0142")


async def test_no_ai_text_to_a_lead_without_ai_outbound_consent(runtime, tenant):
    frozen(runtime)
    await sendable(runtime, tenant)
    lead = await tenant.post(
        "/v1/leads",
        json={
            "phone": PHONE,
            "source": "Zillow",
            "first_name": "Dana",
            "email": "dana@example.com",
            "skip_routing": True,
        },
    )
    assert lead.json()["ai_outbound_allowed"] is False
    email_step = {
        "type": "send_message",
        "persona": "ava",
        "channel": "EMAIL",
        "subject": "Hello",
        "template": "Hi {first_name}",
    }
    automation_id = await automation(runtime, tenant, [FULL_STEPS[0], email_step])
    enrolment_id = await _enrol(tenant, automation_id, lead.json()["contact_id"])
    await tick(runtime)
    runs = await step_runs(runtime, enrolment_id)
    assert runs[0]["outcome"] == "blocked"
    assert runs[0]["detail"].startswith("ai_outbound_not_allowed")
    # The text never reached the send path (no message, not even a refused one); email,
    # which ai_outbound_allowed does not govern, went through the gates.
    messages = (await tenant.get("/v1/messages")).json()["data"]
    assert [item["channel"] for item in messages] == ["EMAIL"]
    assert runs[1]["outcome"] == "done"


async def test_a_note_pauses_ai_sends_but_not_the_other_steps(runtime, tenant):
    frozen(runtime)
    await sendable(runtime, tenant)
    automation_id = await automation(runtime, tenant, [FULL_STEPS[0], FULL_STEPS[3]])
    contact_id = await contact(tenant)
    await tenant.post(f"/v1/contacts/{contact_id}/notes", json={"body": "I'll handle Dana."})
    enrolment_id = await _enrol(tenant, automation_id, contact_id)
    await tick(runtime)
    runs = await step_runs(runtime, enrolment_id)
    assert [run["outcome"] for run in runs] == ["skipped", "done"]
    assert runs[0]["detail"] == (
        "ai_auto_response_paused: the contact's AI auto-response is paused (note)"
    )
    assert await count(runtime, MESSAGES) == 0
    assert (await tenant.get(f"/v1/contacts/{contact_id}")).json()["stage"] == "NURTURE"


async def test_an_erased_contact_stops_its_enrolment(runtime, tenant):
    automation_id = await automation(runtime, tenant, [FULL_STEPS[3]])
    contact_id = await contact(tenant)
    await _enrol(tenant, automation_id, contact_id)
    await tenant.delete(f"/v1/contacts/{contact_id}")
    await tick(runtime)
    state = await _enrolment(tenant, automation_id)
    assert state["status"] == "stopped" and "erased" in state["last_error"]
    assert await count(runtime, STEP_RUNS) == 0 and await count(runtime, TASKS) == 0


async def test_the_worker_job_ticks_the_engine(runtime, tenant):
    from homebase.root.jobs import JOBS
    from homebase.root.worker import run_round

    assert "automations.tick" in {job.name for job in JOBS}
    automation_id = await automation(runtime, tenant, [FULL_STEPS[3]])
    await _enrol(tenant, automation_id, await contact(tenant))
    assert await engine.work_waiting(runtime)
    await run_round(runtime)
    assert (await _enrolment(tenant, automation_id))["status"] == "completed"
    assert not await engine.work_waiting(runtime)


async def test_invalid_definitions_are_refused_with_a_clear_message(runtime, tenant):
    import pytest

    from homebase.kit.errors import AdminError

    email_only = {**PERSONA, "channels": ["EMAIL"]}
    cases = [
        (
            {"personas": [email_only], "automations": [{"name": "x", "steps": FULL_STEPS}]},
            "automations[0]: steps.0.channel: persona Ava does not use SMS (it uses EMAIL)",
        ),
        (
            {"automations": [{"name": "x", "steps": [{"type": "teleport"}]}]},
            "automations[0].steps.0",
        ),
        (
            {
                "personas": [PERSONA],
                "automations": [
                    {"name": "x", "steps": [{**FULL_STEPS[0], "template": "Hi {city}"}]}
                ],
            },
            "holds a placeholder that is not one of {first_name}, {full_name}",
        ),
        ({"automations": [{"name": "x", "steps": [FULL_STEPS[0]]}]}, "unknown ref 'ava'"),
        ({"automations": [{"name": "x", "steps": [{"type": "wait"}]}]}, "more than 0 seconds"),
        ({"automations": [{"name": "x", "steps": []}]}, "automations[0].steps"),
        ({"campaigns": [{"name": "c", "automation": "aut_nope"}]}, "no automation 'aut_nope'"),
        (
            {
                "personas": [email_only],
                "automations": [
                    {
                        "name": "x",
                        "steps": [
                            {
                                "type": "send_message",
                                "persona": "ava",
                                "channel": "EMAIL",
                                "template": "Hi",
                                "subject": "Hi\r\nBcc: eve@example.com",
                            }
                        ],
                    }
                ],
            },
            "steps.0.send_message.subject: Value error, must be one line",
        ),
    ]
    for document, message in cases:
        with pytest.raises(AdminError) as refused:
            await load(runtime, tenant.id, document)
        assert message in str(refused.value), (message, str(refused.value))
    for path in ("/v1/personas", "/v1/automations", "/v1/campaigns"):
        assert (await tenant.get(path)).json()["data"] == []


async def test_concurrent_enrols_of_one_contact_make_one_enrolment(runtime, tenant):
    import asyncio

    automation_id = await automation(runtime, tenant)
    contact_id = await contact(tenant)
    responses = await asyncio.gather(
        *(
            tenant.post(f"/v1/automations/{automation_id}/enroll", json={"contact_id": contact_id})
            for _ in range(8)
        )
    )
    assert {response.status_code for response in responses} == {202}
    assert sorted(response.json()["created"] for response in responses) == [False] * 7 + [True]
    assert len({response.json()["id"] for response in responses}) == 1
    assert len(await events(runtime, tenant.id, "automation.run")) == 1
