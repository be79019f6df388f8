"""After DELETE /contacts/{id} the contact stays erased: a write addressed to it by its
path is 409 contact_erased (contacts/service.py writable), new work naming it in a body
is 400 naming contact_id (workspaces/references.py), a repeated DELETE scrubs again, and
its old phone and email no longer find it. What already exists survives and stays usable.
HTTP level, on SQLite and PostgreSQL."""

import hashlib
import hmac
import json

import pytest
from sqlalchemy import select, update

from homebase.kit.ids import new_id
from homebase.models import Call, Contact, Task
from homebase.root.app import create_app
from tests.automations_support import automation
from tests.calendar_support import book, slot
from tests.messaging_support import SENDER, TOKEN, add_sender, reply
from tests.support import assert_error

ERASED = "the contact's data was erased"


async def erased_contact(tenant) -> str:
    created = await tenant.post("/v1/contacts", json={"first_name": "Dana", "last_name": "Reyes"})
    assert created.status_code == 201, created.text
    contact_id = created.json()["id"]
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    return contact_id


async def buyer_pipeline(tenant) -> str:
    pipelines = (await tenant.get("/v1/pipelines")).json()["data"]
    return next(pipeline["id"] for pipeline in pipelines if pipeline["key"] == "buyer")


def assert_refused(response, field: str = "contact_id") -> None:
    body = assert_error(response, 400, "validation_failed")
    assert {"field": field, "in": "body", "message": ERASED, "type": "value_error"} in (
        body["details"]["errors"]
    )


async def test_new_work_naming_an_erased_contact_is_refused_and_nothing_is_created(tenant):
    contact_id = await erased_contact(tenant)
    assert_refused(
        await tenant.post(
            "/v1/deals",
            json={
                "title": "Reyes purchase",
                "pipeline_id": await buyer_pipeline(tenant),
                "contact_id": contact_id,
            },
        )
    )
    assert_refused(
        await tenant.post(
            "/v1/appointments", json={"contact_id": contact_id, "title": "Showing", **slot(17)}
        )
    )
    assert_refused(
        await tenant.post("/v1/tasks", json={"title": "Call Dana back", "contact_id": contact_id})
    )
    for listing in ("/v1/deals", "/v1/appointments", "/v1/tasks"):
        response = await tenant.get(listing, params={"contact_id": contact_id})
        assert response.status_code == 200, response.text
        assert response.json()["data"] == []


async def test_what_existed_before_the_erasure_stays_usable(tenant):
    created = await tenant.post("/v1/contacts", json={"first_name": "Dana"})
    contact_id = created.json()["id"]
    deal = (
        await tenant.post(
            "/v1/deals",
            json={
                "title": "Reyes purchase",
                "pipeline_id": await buyer_pipeline(tenant),
                "contact_id": contact_id,
            },
        )
    ).json()
    appointment = await book(tenant, contact_id)
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    pipeline = next(
        p
        for p in (await tenant.get("/v1/pipelines")).json()["data"]
        if p["id"] == deal["pipeline_id"]
    )
    moved = await tenant.patch(
        f"/v1/deals/{deal['id']}", json={"stage_id": pipeline["stages"][-1]["id"]}
    )
    assert moved.status_code == 200, moved.text
    outcome = await tenant.patch(
        f"/v1/appointments/{appointment['id']}", json={"outcome": "cancelled"}
    )
    assert outcome.status_code == 200, outcome.text


async def test_another_workspaces_contact_still_reads_as_unknown(tenant, other_tenant):
    foreign = await erased_contact(other_tenant)
    response = await tenant.post("/v1/tasks", json={"title": "x", "contact_id": foreign})
    body = assert_error(response, 400, "validation_failed")
    assert body["details"]["errors"][0]["message"] == ("is not a contact of this workspace")


PERSON = {
    "first_name": "Zelda",
    "last_name": "Quixote",
    "email": "zelda.q@example.com",
    "phone": "+1 415 555 0199",
}
PATCHES = [
    {"first_name": "Zelda"},
    {"last_name": "Quixote"},
    {"email": "zelda.q@example.com"},
    {"phone": "+14155550199"},
    {"notes": "Prefers mornings"},
    {"source": "Zillow"},
    {"owner_id": "usr_x"},
    {"stage": "HOT_LEAD"},
    {"tags": ["buyer"]},
    {"first_name": None},
]


def assert_erased_conflict(response, contact_id: str) -> None:
    body = assert_error(response, 409, "contact_erased")
    assert body["details"] == {"contact_id": contact_id}


@pytest.mark.parametrize("patch", PATCHES, ids=lambda patch: next(iter(patch)))
async def test_a_patch_of_an_erased_contact_is_409_and_writes_nothing(tenant, patch):
    contact_id = await erased_contact(tenant)
    before = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert_erased_conflict(await tenant.patch(f"/v1/contacts/{contact_id}", json=patch), contact_id)
    assert (await tenant.get(f"/v1/contacts/{contact_id}")).json() == before


async def test_a_note_on_an_erased_contact_is_409_and_writes_nothing(tenant):
    contact_id = await erased_contact(tenant)
    timeline = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    response = await tenant.post(f"/v1/contacts/{contact_id}/notes", json={"body": "Zelda rang"})
    assert_erased_conflict(response, contact_id)
    assert (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"] == timeline
    contact = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert contact["ai_auto_response_paused"] is False


async def test_a_bad_body_is_still_400_and_an_unknown_contact_still_404(tenant, other_tenant):
    contact_id = await erased_contact(tenant)
    assert_error(
        await tenant.patch(f"/v1/contacts/{contact_id}", json={"stage": "NOPE"}),
        400,
        "validation_failed",
    )
    foreign = await erased_contact(other_tenant)
    assert_error(
        await tenant.patch(f"/v1/contacts/{foreign}", json={"stage": "LEAD"}), 404, "not_found"
    )
    assert_error(
        await tenant.post(f"/v1/contacts/{foreign}/notes", json={"body": "x"}), 404, "not_found"
    )


def test_every_write_addressed_to_a_contact_declares_409_contact_erased(runtime):
    """A sub-resource of /v1/contacts/{id} added later inherits the rule: its write
    methods must declare the 409 (and answer it through contacts.service.writable)."""
    document = create_app(runtime).openapi()
    writes = [
        (path, method, operation)
        for path, item in document["paths"].items()
        if path.startswith("/v1/contacts/{id}")
        for method, operation in item.items()
        if method in {"post", "put", "patch"}
    ]
    assert {(path, method) for path, method, _ in writes} >= {
        ("/v1/contacts/{id}", "patch"),
        ("/v1/contacts/{id}/notes", "post"),
    }
    for path, method, operation in writes:
        assert "contact_erased" in operation["responses"]["409"]["description"], (path, method)


async def test_work_naming_an_erased_contact_in_its_body_is_400(runtime, tenant):
    contact_id = await erased_contact(tenant)
    automation_id = await automation(runtime, tenant)
    assert_refused(
        await tenant.post(
            f"/v1/automations/{automation_id}/enroll", json={"contact_id": contact_id}
        )
    )
    await add_sender(runtime, tenant)
    send = await tenant.post(
        "/v1/messages", json={"channel": "sms", "body": "Hi Zelda", "contact_id": contact_id}
    )
    body = assert_error(send, 400, "validation_failed")
    assert [error["field"] for error in body["details"]["errors"]] == ["contact_id"]
    assert (await tenant.get("/v1/messages", params={"contact_id": contact_id})).json()[
        "data"
    ] == []
    enrolments = await tenant.get(f"/v1/automations/{automation_id}/enrolments")
    assert enrolments.json()["data"] == []


async def _call_naming(runtime, tenant, contact_id: str, transcript: str) -> dict:
    """A provider's call callback that names the contact: a path that still links a call
    to an erased contact (a call that happened is recorded)."""
    runtime.settings.calls_provider_secret = "erasure-secret"
    raw = json.dumps(
        {
            "provider_call_id": new_id("prv"),
            "workspace_id": tenant.id,
            "contact_id": contact_id,
            "direction": "inbound",
            "from": "+14155550199",
            "to": "+14155550100",
            "started_at": "2026-11-20T17:00:00Z",
            "handled_by": "ai",
            "transcript": transcript,
            "summary": transcript,
        }
    ).encode()
    signature = hmac.new(b"erasure-secret", raw, hashlib.sha256).hexdigest()
    response = await tenant.client.post(
        "/providers/calls/completed",
        content=raw,
        headers={"Content-Type": "application/json", "X-Homebase-Signature": f"sha256={signature}"},
    )
    assert response.status_code == 201, response.text
    return response.json()


async def test_a_repeated_delete_scrubs_again_and_answers_the_same(runtime, tenant):
    created = await tenant.post("/v1/contacts", json=PERSON)
    contact_id = created.json()["id"]
    task = await tenant.post("/v1/tasks", json={"title": "Call back", "contact_id": contact_id})
    first = await tenant.delete(f"/v1/contacts/{contact_id}")
    assert first.status_code == 200, first.text

    # Written after the erasure: a call through the callback, and (as a path that might
    # have been missed) the contact's row and a task directly.
    call = await _call_naming(runtime, tenant, contact_id, "Zelda Quixote asked for a tour")
    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(Contact.__table__)
            .where(Contact.__table__.c.id == contact_id)
            .values(first_name="Zelda", phone="+14155550199", phone_e164="+14155550199")
        )
        await connection.execute(
            update(Task.__table__)
            .where(Task.__table__.c.id == task.json()["id"])
            .values(title="Call Zelda Quixote", notes="Zelda prefers mornings")
        )

    again = await tenant.delete(f"/v1/contacts/{contact_id}")
    assert again.status_code == 200, again.text
    assert again.json() == first.json()  # the same shape; anonymized_at is the first's

    contact = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert contact["first_name"] is None and contact["phone"] is None
    stored_task = (await tenant.get(f"/v1/tasks/{task.json()['id']}")).json()
    assert stored_task["title"] == "[redacted]" and stored_task["notes"] is None
    async with runtime.db.transaction(write=False) as connection:
        calls = Call.__table__
        row = (
            (await connection.execute(select(calls).where(calls.c.id == call["id"])))
            .mappings()
            .one()
        )
    assert row["transcript"] is None and row["summary"] is None and row["from_number"] is None
    timeline = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    assert timeline and all(
        entry["title"] == "[redacted]" and entry["body"] is None for entry in timeline
    )


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN}


async def test_the_old_phone_and_email_no_longer_reach_the_erased_contact(runtime, tenant, client):
    created = await tenant.post("/v1/contacts", json=PERSON)
    erased_id = created.json()["id"]
    assert (await tenant.delete(f"/v1/contacts/{erased_id}")).status_code == 200

    lead = await tenant.post(
        "/v1/leads", json={"phone": PERSON["phone"], "email": PERSON["email"], "source": "Web"}
    )
    assert lead.status_code == 201, lead.text
    new_id_ = lead.json()["contact_id"]
    assert new_id_ is not None and new_id_ != erased_id
    fresh = (await tenant.get(f"/v1/contacts/{new_id_}")).json()
    assert fresh["email"] == PERSON["email"] and fresh["anonymized_at"] is None

    # A text from the number: the new contact, never the erased one.
    await add_sender(runtime, tenant)
    assert (await reply(client, "+14155550199", "Still for sale?", to=SENDER)).status_code == 200
    inbound = (await tenant.get("/v1/messages", params={"direction": "INBOUND"})).json()["data"]
    assert [message["contact_id"] for message in inbound] == [new_id_]


async def test_a_text_from_an_erased_number_alone_is_recorded_unlinked(runtime, tenant, client):
    created = await tenant.post("/v1/contacts", json=PERSON)
    erased_id = created.json()["id"]
    assert (await tenant.delete(f"/v1/contacts/{erased_id}")).status_code == 200
    await add_sender(runtime, tenant)
    assert (await reply(client, "+14155550199", "Hello?", to=SENDER)).status_code == 200
    inbound = (await tenant.get("/v1/messages", params={"direction": "INBOUND"})).json()["data"]
    assert len(inbound) == 1 and inbound[0]["contact_id"] is None
    assert (await tenant.get(f"/v1/contacts/{erased_id}/events")).json()["data"] == []


async def test_an_erased_persons_stop_is_still_honoured(runtime, tenant, client):
    """Suppressions are kept on purpose (erasure/registry.py KEPT): the number and the
    evidence of the opt-out stay, and a send to the number is still refused."""
    created = await tenant.post("/v1/contacts", json=PERSON)
    contact_id = created.json()["id"]
    await add_sender(runtime, tenant)
    assert (await reply(client, "+14155550199", "STOP", to=SENDER)).status_code == 200
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    send = await tenant.post(
        "/v1/messages", json={"channel": "sms", "body": "Hello", "to": "+14155550199"}
    )
    assert assert_error(send, 422, "compliance_blocked")["details"]["reason"] == "opted_out"
