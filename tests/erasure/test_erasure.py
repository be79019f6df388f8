"""DELETE /contacts/{id} leaves no trace of the person in any table the registry does not
keep on purpose: a person with history in every domain (notes, a lead with consent,
texts both ways, a call, an appointment, tasks typed and made by an automation, an
idempotent answer, events), then every row of every other table is searched for what
they typed. HTTP level, on SQLite and PostgreSQL."""

import json

import pytest
from sqlalchemy import select, update

from homebase.erasure.registry import KEPT
from homebase.models import Base, Message
from tests.automations_support import automation, tick
from tests.contacts.test_erased_contact import _call_naming
from tests.messaging_support import SENDER, TOKEN, add_sender, reply

PERSON = {
    "first_name": "Zelda",
    "last_name": "Quixote",
    "email": "zelda.q@example.com",
    "phone": "+1 415 555 0199",
    "notes": "Wants a garden",
}
# Case-insensitive; the number's digits (its masked form keeps only the last four).
SECRETS = ("zelda", "quixote", "5550199", "garden")


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN}


async def person_everywhere(runtime, tenant, client) -> str:
    contact_id = (await tenant.post("/v1/contacts", json=PERSON)).json()["id"]
    ok = [
        await tenant.post(f"/v1/contacts/{contact_id}/notes", json={"body": "Zelda rang back"}),
        await tenant.post(
            "/v1/leads",
            json={
                **{key: PERSON[key] for key in ("first_name", "last_name", "email", "phone")},
                "source": "Zillow",
                "context": {"message": "Zelda wants a garden", "zip": "94114"},
                "consent": {"ip": "203.0.113.9", "form_snapshot": {"name": "Zelda Quixote"}},
            },
        ),
        await tenant.post(
            "/v1/appointments",
            json={
                "contact_id": contact_id,
                "title": "Showing for Zelda Quixote",
                "location": "Zelda's place",
                "notes": "Zelda brings a garden plan",
                "starts_at": "2026-11-21T17:00:00Z",
                "ends_at": "2026-11-21T17:45:00Z",
            },
        ),
        await tenant.client.post(
            "/v1/tasks",
            json={
                "title": "Ring Zelda Quixote",
                "notes": "Zelda: garden",
                "contact_id": contact_id,
            },
            headers={**tenant.headers, "Idempotency-Key": "erasure-task-1"},
        ),
        await tenant.post(
            f"/v1/automations/{await automation(runtime, tenant, steps=STEPS)}/enroll",
            json={"contact_id": contact_id},
        ),
    ]
    assert all(response.status_code in (200, 201, 202) for response in ok), [
        response.text for response in ok
    ]
    lead = ok[1].json()
    assert lead["contact_id"] == contact_id
    await tick(runtime)  # the automation's task: "Call {full_name}"
    await add_sender(runtime, tenant)
    assert (await reply(client, "+14155550199", "Zelda here", to=SENDER)).status_code == 200
    sent = await tenant.post(
        "/v1/messages",
        json={"channel": "sms", "body": "Hi Zelda, about the garden", "contact_id": contact_id},
    )
    assert sent.status_code == 201, sent.text
    await _call_naming(runtime, tenant, contact_id, "Zelda Quixote asked about a garden")
    return contact_id


STEPS = [{"type": "create_task", "title": "Call {full_name}", "notes": "Ask about the plan"}]


async def traces(runtime, workspace_id: str) -> dict[str, list[str]]:
    """Each table outside KEPT whose rows of this workspace still hold a secret."""
    found: dict[str, list[str]] = {}
    async with runtime.db.transaction(write=False) as connection:
        for name, table in Base.metadata.tables.items():
            if name in KEPT:
                continue
            statement = select(table)
            if "workspace_id" in table.c:
                statement = statement.where(table.c.workspace_id == workspace_id)
            elif name != "workspaces":
                continue
            for row in (await connection.execute(statement)).mappings():
                text = json.dumps(dict(row), default=str).lower()
                hits = [secret for secret in SECRETS if secret in text]
                if hits:
                    found.setdefault(name, []).extend(hits)
    return found


async def test_an_erasure_leaves_no_trace_outside_the_kept_tables(runtime, tenant, client):
    contact_id = await person_everywhere(runtime, tenant, client)
    before = await traces(runtime, tenant.id)
    for table in ("contacts", "timeline_events", "leads", "consent_artifacts", "messages"):
        assert table in before, table  # the search finds what is there
    assert {"calls", "appointments", "tasks", "outbox_events"} <= set(before)

    response = await tenant.delete(f"/v1/contacts/{contact_id}")
    assert response.status_code == 200, response.text
    assert await traces(runtime, tenant.id) == {}
    tasks = (await tenant.get("/v1/tasks", params={"contact_id": contact_id})).json()["data"]
    assert len(tasks) == 2
    assert all(task["title"] == "[redacted]" and task["notes"] is None for task in tasks)


async def test_a_providers_refusal_quoting_the_number_is_masked(runtime, tenant, client):
    """A provider's refusal is stored as it said it and may quote the number or address
    (Twilio: "The 'To' number ... is not a valid phone number"); erasure masks it."""
    contact_id = await person_everywhere(runtime, tenant, client)
    refusal = "Provider refused: 'To' number +14155550199 (zelda.q@example.com) is blocked"
    messages = Message.__table__
    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(messages)
            .where(messages.c.contact_id == contact_id, messages.c.direction == "OUTBOUND")
            .values(status="FAILED", failure_reason=refusal)
        )
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    async with runtime.db.transaction(write=False) as connection:
        reasons = (
            (
                await connection.execute(
                    select(messages.c.failure_reason).where(
                        messages.c.contact_id == contact_id, messages.c.direction == "OUTBOUND"
                    )
                )
            )
            .scalars()
            .all()
        )
    assert reasons and all("5550199" not in reason and "zelda" not in reason for reason in reasons)
    assert all(reason.startswith("Provider refused: 'To' number ") for reason in reasons)
