"""The contact's AI switch: POST /v1/contacts/{id}/ai/pause and .../ai/resume, the pause's
reason on the contact, and what else pauses it (a note, a person's POST /v1/messages).
HTTP level, on SQLite and PostgreSQL."""

import asyncio

from homebase.contacts.schemas import ContactAiPauseReason
from homebase.contacts.service import PAUSE_REASONS
from tests.automations_support import events
from tests.messaging_support import NEW_YORK, add_consent, add_sender, freeze
from tests.support import assert_error, make_key

PAUSE_MEMBERS = [
    "ai_auto_response_paused",
    "ai_auto_response_paused_at",
    "ai_auto_response_paused_reason",
]
DAYTIME = 18  # UTC: daytime in New York, so only consent decides a proactive text


async def contact(tenant, **values) -> dict:
    response = await tenant.post(
        "/v1/contacts", json={"first_name": "Dana", "phone": NEW_YORK, **values}
    )
    assert response.status_code == 201, response.text
    return response.json()


async def pause(tenant, contact_id: str, **kwargs):
    return await tenant.post(f"/v1/contacts/{contact_id}/ai/pause", **kwargs)


async def resume(tenant, contact_id: str, **kwargs):
    return await tenant.post(f"/v1/contacts/{contact_id}/ai/resume", **kwargs)


async def shown(tenant, contact_id: str) -> dict:
    """The contact as GET and the list show it; both must agree."""
    one = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    listed = (await tenant.get("/v1/contacts", params={"limit": 200})).json()["data"]
    assert [item for item in listed if item["id"] == contact_id] == [one]
    return one


async def pause_changes(runtime, tenant) -> list[dict]:
    """contact.updated events that paused or resumed the AI, oldest first."""
    updated = await events(runtime, tenant.id, "contact.updated")
    return [data for data in updated if data["changed"] == PAUSE_MEMBERS]


def paused_state(body: dict) -> tuple:
    return tuple(body[name] for name in PAUSE_MEMBERS)


def test_the_documented_reasons_are_the_services():
    assert tuple(reason.value for reason in ContactAiPauseReason) == PAUSE_REASONS
    assert PAUSE_REASONS == (
        "note",
        "human_message",
        "handoff",
        "daily_limit",
        "manual",
        "opt_out",
    )


async def test_the_document_states_the_reason_and_the_operations(tenant):
    document = (await tenant.get("/v1/openapi.json")).json()
    schemas = document["components"]["schemas"]
    member = schemas["Contact"]["properties"]["ai_auto_response_paused_reason"]
    assert {"$ref": "#/components/schemas/ContactAiPauseReason"} in member["anyOf"]
    assert {"type": "null"} in member["anyOf"]
    assert "ai_auto_response_paused_reason" in schemas["Contact"]["required"]
    assert schemas["ContactAiPauseReason"]["enum"] == list(PAUSE_REASONS)
    retrieve = document["paths"]["/v1/contacts/{id}"]["get"]
    for action, operation_id in (("pause", "pause_contact_ai"), ("resume", "resume_contact_ai")):
        operation = document["paths"][f"/v1/contacts/{{id}}/ai/{action}"]["post"]
        assert operation["operationId"] == operation_id
        assert "requestBody" not in operation
        # What GET /v1/contacts/{id} answers, `fields` and all.
        assert operation["responses"]["200"]["content"] == retrieve["responses"]["200"]["content"]
        named = [item for item in operation["parameters"] if item["in"] != "header"]
        assert named == retrieve["parameters"]  # the id and `fields`
        assert "contact_erased" in operation["responses"]["409"]["description"]
        for reason in PAUSE_REASONS:
            assert f"(`{reason}`)" in operation["description"]
    resume_text = document["paths"]["/v1/contacts/{id}/ai/resume"]["post"]["description"]
    assert "clears the pause, its time and its reason" in resume_text


async def test_a_new_contact_answers_with_no_pause(tenant):
    created = await contact(tenant)
    assert paused_state(created) == (False, None, None)
    assert paused_state(await shown(tenant, created["id"])) == (False, None, None)


async def test_pause_and_resume_roundtrip(runtime, tenant):
    created = await contact(tenant)
    response = await pause(tenant, created["id"])
    assert response.status_code == 200, response.text
    paused = response.json()
    assert paused["ai_auto_response_paused"] is True
    assert paused["ai_auto_response_paused_reason"] == "manual"
    assert paused["ai_auto_response_paused_at"] == paused["updated_at"]
    assert paused["updated_at"] >= created["updated_at"]
    # The same contact GET answers, and the list shows it alike.
    assert await shown(tenant, created["id"]) == paused

    response = await resume(tenant, created["id"])
    assert response.status_code == 200, response.text
    resumed = response.json()
    assert paused_state(resumed) == (False, None, None)
    assert await shown(tenant, created["id"]) == resumed

    changes = await pause_changes(runtime, tenant)
    assert [paused_state(data) for data in changes] == [
        (True, paused["ai_auto_response_paused_at"], "manual"),
        (False, None, None),
    ]
    assert all(data["id"] == created["id"] and data["pii_masked"] for data in changes)
    assert changes[0]["phone"] != NEW_YORK  # events are masked


async def test_pause_and_resume_are_idempotent_and_emit_once(runtime, tenant):
    clock = freeze(runtime, DAYTIME)
    created = await contact(tenant)
    first = (await pause(tenant, created["id"])).json()
    clock.advance(minutes=5)  # a second pause would show a later time
    again = await pause(tenant, created["id"])
    assert again.status_code == 200
    assert again.json() == first  # reason, time and updated_at all kept
    assert len(await pause_changes(runtime, tenant)) == 1

    await resume(tenant, created["id"])
    again = await resume(tenant, created["id"])
    assert again.status_code == 200 and paused_state(again.json()) == (False, None, None)
    assert len(await pause_changes(runtime, tenant)) == 2

    # Resuming a contact that was never paused changes and emits nothing.
    other = await contact(tenant, first_name="Lee")
    untouched = (await resume(tenant, other["id"])).json()
    assert untouched == await shown(tenant, other["id"])
    assert untouched["updated_at"] == other["updated_at"]
    assert len(await pause_changes(runtime, tenant)) == 2


async def test_a_pause_keeps_the_first_reason(runtime, tenant):
    created = await contact(tenant)
    await tenant.post(f"/v1/contacts/{created['id']}/notes", json={"body": "I'll call her."})
    noted = await shown(tenant, created["id"])
    assert noted["ai_auto_response_paused_reason"] == "note"
    paused = (await pause(tenant, created["id"])).json()
    assert paused_state(paused) == paused_state(noted)
    assert len(await pause_changes(runtime, tenant)) == 1


async def test_a_note_pauses_and_resume_clears_its_reason(runtime, tenant):
    created = await contact(tenant)
    note = await tenant.post(f"/v1/contacts/{created['id']}/notes", json={"body": "Called."})
    assert note.status_code == 201, note.text
    paused = await shown(tenant, created["id"])
    assert paused_state(paused) == (True, note.json()["occurred_at"], "note")
    resumed = (await resume(tenant, created["id"])).json()
    assert paused_state(resumed) == (False, None, None)
    assert paused_state(await shown(tenant, created["id"])) == (False, None, None)
    changes = await pause_changes(runtime, tenant)
    assert [data["ai_auto_response_paused_reason"] for data in changes] == ["note", None]


async def test_fields_selects_the_reason(tenant):
    created = await contact(tenant)
    response = await pause(
        tenant, created["id"], params={"fields": "ai_auto_response_paused_reason"}
    )
    assert response.json() == {
        "id": created["id"],
        "pii_masked": False,
        "ai_auto_response_paused_reason": "manual",
    }
    for url in (f"/v1/contacts/{created['id']}", "/v1/contacts"):
        response = await tenant.get(url, params={"fields": "ai_auto_response_paused_reason"})
        assert response.status_code == 200, response.text
        body = response.json()
        item = body["data"][0] if "data" in body else body
        assert item["ai_auto_response_paused_reason"] == "manual"
    refused = await resume(tenant, created["id"], params={"fields": "ai_paused_reason"})
    assert_error(refused, 400, "validation_failed")
    assert (await shown(tenant, created["id"]))["ai_auto_response_paused"] is True


async def test_a_body_sent_is_ignored(tenant):
    """The operations declare no body; one sent anyway is not read (docs/decisions.md)."""
    created = await contact(tenant)
    response = await pause(tenant, created["id"], json={"reason": "handoff"})
    assert response.status_code == 200, response.text
    assert response.json()["ai_auto_response_paused_reason"] == "manual"
    response = await resume(tenant, created["id"], json={})
    assert response.status_code == 200 and response.json()["ai_auto_response_paused"] is False


async def test_another_workspaces_contact_and_an_unknown_id_are_404(runtime, tenant, other_tenant):
    foreign = await contact(other_tenant)
    for call in (pause, resume):
        assert_error(await call(tenant, foreign["id"]), 404, "not_found")
        assert_error(await call(tenant, "con_00000000000000000000000000"), 404, "not_found")
    assert paused_state(await shown(other_tenant, foreign["id"])) == (False, None, None)
    assert await pause_changes(runtime, other_tenant) == []


async def test_an_erased_contact_is_409_and_keeps_its_state(runtime, tenant):
    created = await contact(tenant)
    await pause(tenant, created["id"])
    assert (await tenant.delete(f"/v1/contacts/{created['id']}")).status_code == 200
    before = await shown(tenant, created["id"])
    for call in (resume, pause):
        body = assert_error(await call(tenant, created["id"]), 409, "contact_erased")
        assert body["details"] == {"contact_id": created["id"]}
    assert await shown(tenant, created["id"]) == before
    assert len(await pause_changes(runtime, tenant)) == 1  # the pause before the erasure


async def test_the_switch_needs_contacts_write(runtime, tenant, make):
    created = await contact(tenant)
    _, key = await make_key(runtime, tenant.id, ["contacts:read"])
    reader = {"Authorization": f"token {key}"}
    for action in ("pause", "resume"):
        url = f"/v1/contacts/{created['id']}/ai/{action}"
        assert_error(await tenant.client.post(url, headers=reader), 403, "insufficient_scope")
    assert paused_state(await shown(tenant, created["id"])) == (False, None, None)
    # Without contacts:write the scope is refused before the id is looked at.
    writer_elsewhere = await make(["contacts:read", "messages:send"])
    assert_error(await pause(writer_elsewhere, created["id"]), 403, "insufficient_scope")
    assert await pause_changes(runtime, tenant) == []


# --- a person's message ------------------------------------------------------------------


async def sendable(runtime, tenant) -> None:
    """Daytime, an approved sender and consent for NEW_YORK: every gate passes."""
    freeze(runtime, DAYTIME)
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, NEW_YORK)


async def send(tenant, **body):
    return await tenant.post("/v1/messages", json={"channel": "sms", "body": "Hi!", **body})


async def test_a_persons_message_to_a_contact_pauses_its_ai(runtime, tenant):
    await sendable(runtime, tenant)
    created = await contact(tenant)
    response = await send(tenant, contact_id=created["id"])
    assert response.status_code == 201, response.text
    message = response.json()
    assert message["status"] == "QUEUED" and message["ai_generated"] is False
    paused = await shown(tenant, created["id"])
    assert paused_state(paused) == (True, message["created_at"], "human_message")
    # A second message keeps the first pause; nothing more is emitted.
    assert (await send(tenant, contact_id=created["id"])).status_code == 201
    assert paused_state(await shown(tenant, created["id"])) == paused_state(paused)
    changes = await pause_changes(runtime, tenant)
    assert [data["ai_auto_response_paused_reason"] for data in changes] == ["human_message"]


async def test_a_message_to_a_contacts_number_pauses_its_ai(runtime, tenant):
    await sendable(runtime, tenant)
    created = await contact(tenant)
    response = await send(tenant, to=NEW_YORK)
    assert response.status_code == 201, response.text
    assert response.json()["contact_id"] == created["id"]
    paused = await shown(tenant, created["id"])
    assert paused["ai_auto_response_paused_reason"] == "human_message"


async def test_a_message_to_no_contact_pauses_nothing(runtime, tenant):
    await sendable(runtime, tenant)
    created = await contact(tenant, phone="+12125550143")
    response = await send(tenant, to=NEW_YORK)  # nobody's number
    assert response.status_code == 201, response.text
    assert response.json()["contact_id"] is None
    assert paused_state(await shown(tenant, created["id"])) == (False, None, None)
    assert await pause_changes(runtime, tenant) == []


async def test_an_ai_generated_message_does_not_pause(runtime, tenant):
    await sendable(runtime, tenant)
    created = await contact(tenant)
    response = await send(tenant, contact_id=created["id"], ai_generated=True)
    assert response.status_code == 201, response.text
    assert paused_state(await shown(tenant, created["id"])) == (False, None, None)
    assert await pause_changes(runtime, tenant) == []


async def test_a_refused_message_does_not_pause(runtime, tenant):
    freeze(runtime, DAYTIME)
    await add_sender(runtime, tenant)  # no consent: a proactive text is refused
    created = await contact(tenant)
    response = await send(tenant, contact_id=created["id"])
    error = assert_error(response, 422, "compliance_blocked")
    assert error["details"]["reason"] == "consent_missing"
    # The refusal is recorded, and the AI is not paused.
    stored = await tenant.get(f"/v1/messages/{error['details']['message_id']}")
    assert stored.json()["status"] == "FAILED"
    assert paused_state(await shown(tenant, created["id"])) == (False, None, None)
    assert await pause_changes(runtime, tenant) == []


async def test_resume_after_a_persons_message(runtime, tenant):
    await sendable(runtime, tenant)
    created = await contact(tenant)
    assert (await send(tenant, contact_id=created["id"])).status_code == 201
    resumed = (await resume(tenant, created["id"])).json()
    assert paused_state(resumed) == (False, None, None)


async def test_two_pauses_at_once_emit_one_change(runtime, tenant):
    contact_id = (await contact(tenant))["id"]
    answers = await asyncio.gather(*(pause(tenant, contact_id) for _ in range(4)))
    assert [answer.status_code for answer in answers] == [200] * 4
    assert {paused_state(answer.json()) for answer in answers} == {
        paused_state(await shown(tenant, contact_id))
    }
    assert len(await pause_changes(runtime, tenant)) == 1
