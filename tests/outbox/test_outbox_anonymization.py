"""DELETE /contacts/{id} scrubs the contact's stored events too: webhook bodies are built
from them at send time, so pending deliveries, retries and redeliveries after the DELETE
carry no erased data, under the same event ids. HTTP level with a real receiver, on
SQLite and PostgreSQL; the redaction rules per event type as a unit."""

from datetime import UTC, datetime

import orjson
import pytest
from sqlalchemy import select

from homebase.kit.clock import FrozenClock
from homebase.models import OutboxEvent
from homebase.outbox.redaction import REDACTED, RULES, contact_of, redact
from homebase.webhooks.catalogue_docs import EVENT_DOCS, _envelope_model
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import subscribe, work

outbox = OutboxEvent.__table__
# What the person typed; none of it (nor its masked email) may leave after the DELETE.
PERSON = {
    "first_name": "Dorotea",
    "last_name": "Quintero-Vance",
    "email": "dorotea.qv@example.com",
    "phone": "+1 415 555 0142",
}
SECRETS = ["Dorotea", "Quintero", "dorotea.qv", "d***@example.com", "Sanchez", "Wants a garden"]


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def stored(runtime, workspace_id) -> list[dict]:
    async with runtime.db.transaction(write=False) as connection:
        rows = (
            (
                await connection.execute(
                    select(outbox)
                    .where(outbox.c.workspace_id == workspace_id)
                    .order_by(outbox.c.id)
                )
            )
            .mappings()
            .all()
        )
    return [dict(row) for row in rows]


async def person_with_history(tenant) -> dict:
    """A contact with a note, a lead and an appointment: events of three domains."""
    contact = (
        await tenant.post("/v1/contacts", {**PERSON, "notes": "Wants a garden", "tags": ["buyer"]})
    ).json()
    assert (
        await tenant.post(f"/v1/contacts/{contact['id']}/notes", {"body": "Dorotea called back"})
    ).status_code == 201
    lead = await tenant.post(
        "/v1/leads", {**PERSON, "source": "Zillow", "context": {"note": "Wants a garden"}}
    )
    assert lead.status_code == 201, lead.text
    assert lead.json()["contact_id"] == contact["id"]
    booked = await tenant.post(
        "/v1/appointments",
        {
            "contact_id": contact["id"],
            "title": "Showing: 1421 Sanchez St",
            "location": "1421 Sanchez St",
            "starts_at": "2026-11-21T17:00:00Z",
            "ends_at": "2026-11-21T17:45:00Z",
        },
    )
    assert booked.status_code == 201, booked.text
    return contact


def assert_clean(request) -> None:
    text = request.body.decode()
    for secret in SECRETS:
        assert secret not in text, (secret, text)
    # Still the documented members (docs/webhooks.md, the OpenAPI webhooks section).
    doc = EVENT_DOCS[request.headers["x-webhook-event"]]
    data = set(orjson.loads(request.body)["data"]) - {"event_id", "occurred_at"}
    assert set(doc.members) - {"..."} <= data


async def test_pending_deliveries_after_delete_carry_scrubbed_data(
    tenant, runtime, receiver, clock
):
    await subscribe(tenant, receiver.url)
    contact = await person_with_history(tenant)
    before = await stored(runtime, tenant.id)
    assert any("Dorotea" in orjson.dumps(row["data"]).decode() for row in before)

    assert (await tenant.delete(f"/v1/contacts/{contact['id']}")).status_code == 200
    after = await stored(runtime, tenant.id)
    await work(runtime)
    requests = await receiver.wait_for(len(after))

    assert len(requests) == len(after) == len(before) + 1  # + the DELETE's contact.updated
    delivered = {orjson.loads(r.body)["data"]["event_id"]: r for r in requests}
    assert set(delivered) == {row["id"] for row in after}
    assert {row["id"] for row in before} < set(delivered)  # the original ids, unchanged
    for request in requests:
        assert_clean(request)
    types = {r.headers["x-webhook-event"] for r in requests}
    assert {"contact.created", "lead.created", "appointment.booked"} <= types
    booked = next(
        orjson.loads(r.body)["data"]
        for r in requests
        if r.headers["x-webhook-event"] == "appointment.booked"
    )
    assert booked["title"] == REDACTED and booked["location"] is None
    # Only data changed: types and times are those of the original rows.
    assert [(row["id"], row["type"], row["occurred_at"]) for row in before] == [
        (row["id"], row["type"], row["occurred_at"]) for row in after[: len(before)]
    ]


async def test_redelivery_and_retry_after_delete_carry_scrubbed_data(
    tenant, runtime, receiver, clock
):
    receiver.respond = script(200, 500, 200)  # the appointment's first attempt fails
    hook = await subscribe(tenant, receiver.url, ["contact.created", "appointment.booked"])
    contact = (await tenant.post("/v1/contacts", PERSON)).json()
    await work(runtime)
    await tenant.post(
        "/v1/appointments",
        {
            "contact_id": contact["id"],
            "title": "Showing: 1421 Sanchez St",
            "location": "1421 Sanchez St",
            "starts_at": "2026-11-21T17:00:00Z",
            "ends_at": "2026-11-21T17:45:00Z",
        },
    )
    await work(runtime)
    created, booked = await receiver.wait_for(2)
    assert b"Dorotea" in created.body and b"Sanchez" in booked.body  # sent before the DELETE

    assert (await tenant.delete(f"/v1/contacts/{contact['id']}")).status_code == 200
    deliveries = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    done = next(d for d in deliveries if d["event_type"] == "contact.created")
    assert done["status"] == "succeeded"
    response = await tenant.post(f"/v1/webhooks/{hook['id']}/deliveries/{done['id']}/redeliver")
    assert response.status_code == 202
    clock.advance(minutes=1)  # the failed appointment.booked is due again
    await work(runtime)
    redelivered, retried = sorted(
        (await receiver.wait_for(4))[2:],
        key=lambda r: r.headers["x-webhook-event"] != "contact.created",
    )
    for old, new in ((created, redelivered), (booked, retried)):
        assert_clean(new)
        assert new.headers["x-webhook-delivery"] == old.headers["x-webhook-delivery"]
        assert (
            orjson.loads(new.body)["data"]["event_id"] == orjson.loads(old.body)["data"]["event_id"]
        )
    data = orjson.loads(redelivered.body)["data"]
    assert data["first_name"] is None and data["last_name"] is None and data["email"] is None
    assert orjson.loads(retried.body)["data"]["title"] == REDACTED


async def test_other_workspaces_events_are_untouched(tenant, other_tenant, runtime):
    mine = (await tenant.post("/v1/contacts", PERSON)).json()
    theirs = (await other_tenant.post("/v1/contacts", PERSON)).json()
    # A row of the other workspace naming this contact's id: the scrub stays in its workspace.
    async with runtime.db.transaction() as connection:
        await connection.execute(
            outbox.insert().values(
                id="evt_forged",
                workspace_id=other_tenant.id,
                type="contact.created",
                data={"id": mine["id"], "first_name": "Dorotea"},
                contact_id=mine["id"],
                occurred_at=datetime.now(UTC),
                dispatched_at=None,
            )
        )
    before = await stored(runtime, other_tenant.id)
    assert {row["contact_id"] for row in before} == {theirs["id"], mine["id"]}

    assert (await tenant.delete(f"/v1/contacts/{mine['id']}")).status_code == 200
    assert await stored(runtime, other_tenant.id) == before
    created = (await stored(runtime, tenant.id))[0]
    assert created["type"] == "contact.created" and created["data"]["first_name"] is None


async def test_events_name_their_contact(tenant, runtime):
    contact = await person_with_history(tenant)
    rows = await stored(runtime, tenant.id)
    assert {row["type"] for row in rows} >= {
        "contact.created",
        "contact.tag_added",
        "lead.created",
        "appointment.booked",
    }
    assert {row["contact_id"] for row in rows} == {contact["id"]}


# The rules, one event type at a time, on the documented examples.
EXPECTED = {
    "contact.created": {
        "first_name": None,
        "last_name": None,
        "email": None,
        "phone": None,
        "phone_e164": None,
        "custom_fields": {},
    },
    "contact.updated": {
        "first_name": None,
        "last_name": None,
        "email": None,
        "phone": None,
        "phone_e164": None,
        "custom_fields": {},
    },
    "lead.created": {"phone": None, "ai_outbound_allowed": False},
    "call.completed": {"summary": None, "has_recording": False, "from": None},
    "document.signed": {"name": REDACTED, "signer_name": None},
    "appointment.booked": {"title": REDACTED, "location": None},
    "appointment.rescheduled": {"title": REDACTED, "location": None},
    "appointment.outcome": {"title": REDACTED, "location": None},
    "saved_search.sent": {"name": REDACTED},
    "ai.handoff": {"summary": REDACTED},
}


@pytest.mark.parametrize("event_type", sorted(EVENT_DOCS))
def test_redaction_per_event_type(event_type):
    example = EVENT_DOCS[event_type].example
    scrubbed = redact(event_type, example)
    changed = {key: value for key, value in scrubbed.items() if example.get(key) != value}
    if event_type == "lead.assigned":
        assert set(changed) == {"lead"}
        assert scrubbed["lead"] == redact("lead.created", example["lead"])
    else:
        assert changed == EXPECTED.get(event_type, {})
    assert set(scrubbed) == set(example)  # members keep their names: only values change
    assert redact(event_type, scrubbed) == scrubbed  # repeating changes nothing
    # Still valid against the documented schema (non-null strings stay strings).
    _envelope_model(event_type, EVENT_DOCS[event_type]).model_validate(
        {
            "event": event_type,
            "tenantId": "wsp_x",
            "occurredAt": "2026-11-20T17:04:05Z",
            "data": {"event_id": "evt_x", "occurred_at": "2026-11-20T17:04:05Z", **scrubbed},
        }
    )


def test_lead_redaction_drops_names_context_and_consent():
    lead = {
        "id": "lea_1",
        "contact_id": "con_1",
        "first_name": "Dorotea",
        "last_name": "Q",
        "email": "d***@example.com",
        "phone": "+* *** ***-0142",
        "source": "Zillow",
        "context": {"zip": "94114", "note": "x"},
        "ai_outbound_allowed": True,
        "consent_id": "cns_1",
        "consent_expires_at": "2027-01-01T00:00:00.000Z",
    }
    scrubbed = redact("lead.created", lead)
    assert scrubbed == {
        **lead,
        "first_name": None,
        "last_name": None,
        "email": None,
        "phone": None,
        "context": {},
        "ai_outbound_allowed": False,
        "consent_id": None,
        "consent_expires_at": None,
    }
    assert lead["context"] == {"zip": "94114", "note": "x"}  # the input is not modified
    assigned = redact("lead.assigned", {"lead_id": "lea_1", "reason": "rule", "lead": lead})
    assert assigned == {"lead_id": "lea_1", "reason": "rule", "lead": scrubbed}


def test_call_redaction_drops_the_other_partys_number():
    call = {
        "direction": "outbound",
        "from": "+*******0100",
        "to": "+*******0142",
        "summary": "s",
        "transcript": "t",
        "has_recording": True,
    }
    assert redact("call.completed", call) == {
        **call,
        "to": None,
        "summary": None,
        "transcript": None,
        "has_recording": False,
    }


def test_every_catalogue_event_has_a_rule():
    assert set(RULES) == set(EVENT_DOCS)


@pytest.mark.parametrize(
    ("event_type", "data", "expected"),
    [
        ("contact.created", {"id": "con_1"}, "con_1"),
        ("contact.tag_added", {"id": "con_1", "tag": "x"}, "con_1"),
        ("lead.created", {"id": "lea_1", "contact_id": "con_1"}, "con_1"),
        ("lead.created", {"id": "lea_1", "contact_id": None}, None),
        ("deal.stage_changed", {"id": "dea_1", "contact_id": "con_2"}, "con_2"),
        ("message.sent", {"id": "msg_1"}, None),
        ("contact.updated", {"id": 5}, None),
    ],
)
def test_contact_of(event_type, data, expected):
    assert contact_of(event_type, data) == expected
