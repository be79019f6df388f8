"""Messaging at the HTTP level: every gate refuses and records, sends go through the
worker, replies opt out and back in; on SQLite and PostgreSQL."""

from urllib.parse import urlencode

import pytest
from sqlalchemy import select

from homebase.messaging import jobs
from homebase.models import OutboxEvent, Suppression
from homebase.providers.local import RECORDED
from homebase.providers.signing import signature
from homebase.webhooks import render as webhook_render
from tests.kit.test_openapi import assert_conforms
from tests.messaging_support import (
    HONOLULU,
    LOS_ANGELES,
    NEW_YORK,
    NO_ZONE,
    NORTH_DAKOTA,
    SENDER,
    TOKEN,
    add_consent,
    add_sender,
    freeze,
    provider_post,
    reply,
    set_messaging,
    set_status,
)
from tests.support import assert_error, failing_fields

DAYTIME = 18  # UTC: 13:00/14:00 New York, 10:00/11:00 Los Angeles, 08:00 Honolulu


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN}


@pytest.fixture
async def ready(runtime, tenant):
    """An approved sender, daytime in every US zone."""
    freeze(runtime, DAYTIME)
    await add_sender(runtime, tenant)
    return tenant


async def contact(tenant, phone=NEW_YORK, email="dana@example.com"):
    response = await tenant.post(
        "/v1/contacts", json={"first_name": "Dana", "phone": phone, "email": email}
    )
    assert response.status_code == 201, response.text
    return response.json()


async def send(tenant, **body):
    return await tenant.post("/v1/messages", json={"channel": "sms", "body": "Hi!", **body})


async def listed(tenant, **query):
    response = await tenant.get("/v1/messages", params=query)
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def assert_blocked(tenant, response, reason):
    error = assert_error(response, 422, "compliance_blocked")
    assert error["message"].startswith(f"Blocked ({reason}): ")
    details = error["details"]
    assert details["status"] == "FAILED" and details["recorded"] is True
    stored = (await tenant.get(f"/v1/messages/{details['message_id']}")).json()
    assert stored["status"] == "FAILED" and stored["blocked_reason"] == reason
    assert stored["failure_reason"] == error["message"]
    assert details["message_id"] in [item["id"] for item in await listed(tenant, status="FAILED")]
    return stored


async def test_send_queues_then_worker_sends(runtime, ready):
    person = await contact(ready)
    await add_consent(runtime, ready, NEW_YORK)
    response = await send(ready, contact_id=person["id"], ai_generated=True)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["status"] == "QUEUED" and body["channel"] == "SMS"
    assert body["direction"] == "OUTBOUND" and body["ai_generated"] is True
    assert body["to"] == NEW_YORK and body["from"] == SENDER and body["proactive"] is True

    assert await jobs.send_due(runtime) == 1
    assert RECORDED[-1].message_id == body["id"] and RECORDED[-1].to_address == NEW_YORK
    sent = (await ready.get(f"/v1/messages/{body['id']}")).json()
    assert sent["status"] == "SENT" and sent["sent_at"] and sent["provider"] == "local"
    assert await jobs.send_due(runtime) == 0  # nothing sent twice

    async with runtime.db.transaction() as connection:
        events = (
            (
                await connection.execute(
                    select(OutboxEvent.__table__).where(
                        OutboxEvent.__table__.c.type == "message.sent"
                    )
                )
            )
            .mappings()
            .all()
        )
    assert len(events) == 1
    data = webhook_render.masked(events[0]["data"])  # as a delivery carries it
    assert data["id"] == body["id"] and data["ai_generated"] is True
    assert data["channel"] == "SMS" and data["to"] == "+*******0142"
    timeline = (await ready.get(f"/v1/contacts/{person['id']}/events")).json()["data"]
    assert [entry["type"] for entry in timeline][:1] == ["message.sent"]
    assert timeline[0]["data"]["message_id"] == body["id"]


async def test_addresses_masked_without_pii_scope(runtime, ready, make):
    await add_consent(runtime, ready, NEW_YORK)
    created = (await send(ready, to=NEW_YORK)).json()
    from tests.support import make_key

    _, key = await make_key(runtime, ready.id, ["messages:read"])
    response = await ready.client.get(
        f"/v1/messages/{created['id']}", headers={"Authorization": f"token {key}"}
    )
    body = response.json()
    assert body["pii_masked"] is True and body["to"] == "+*******0142"
    assert body["from"].endswith("0100") and "415" not in body["from"]


async def test_suspended_workspace_sends_nothing(runtime, ready):
    await add_consent(runtime, ready, NEW_YORK)
    await set_status(runtime, ready, "suspended")
    await assert_blocked(ready, await send(ready, to=NEW_YORK), "account_suspended")
    await assert_blocked(
        ready,
        await send(ready, channel="email", to="dana@example.com", subject="Hi"),
        "account_suspended",
    )


async def test_unapproved_sender_is_refused(runtime, tenant):
    freeze(runtime, DAYTIME)
    await add_consent(runtime, tenant, NEW_YORK)
    await assert_blocked(tenant, await send(tenant, to=NEW_YORK), "a2p_not_approved")
    await add_sender(runtime, tenant, a2p_status="pending")
    await assert_blocked(tenant, await send(tenant, to=NEW_YORK), "a2p_not_approved")
    await add_sender(runtime, tenant, number="+14155550199", a2p_status="approved")
    assert (await send(tenant, to=NEW_YORK)).status_code == 201
    await assert_blocked(
        tenant, await send(tenant, to=NEW_YORK, **{"from": SENDER}), "a2p_not_approved"
    )
    assert failing_fields(await send(tenant, to=NEW_YORK, **{"from": "+14155550111"})) == {"from"}


@pytest.mark.parametrize(
    ("utc_hour", "minute", "number", "allowed"),
    [
        (6, 0, NEW_YORK, False),  # 01:00 or 02:00
        (18, 0, NEW_YORK, True),
        (17, 0, HONOLULU, False),  # 07:00 (no daylight saving)
        (17, 0, LOS_ANGELES, True),  # 09:00 or 10:00
        (13, 30, NORTH_DAKOTA, False),  # 07:30/08:30 Central but 06:30/07:30 Mountain
        (18, 0, NORTH_DAKOTA, True),
        (18, 0, NO_ZONE, False),  # no zone resolves: fails closed
    ],
)
async def test_quiet_hours(runtime, tenant, utc_hour, minute, number, allowed):
    freeze(runtime, utc_hour, minute)
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, number)
    response = await send(tenant, to=number)
    if allowed:
        assert response.status_code == 201, response.text
    else:
        await assert_blocked(tenant, response, "quiet_hours")


async def test_quiet_hours_window_is_a_workspace_setting(runtime, ready):
    await add_consent(runtime, ready, LOS_ANGELES)  # 10:00 or 11:00 there
    await set_messaging(runtime, ready, sms_window_start="12:00", sms_window_end="17:00")
    await assert_blocked(ready, await send(ready, to=LOS_ANGELES), "quiet_hours")


async def test_consent_needed_for_proactive_texts(runtime, ready):
    await assert_blocked(ready, await send(ready, to=NEW_YORK), "consent_missing")
    await add_consent(runtime, ready, NEW_YORK, revoked=True)
    await assert_blocked(ready, await send(ready, to=NEW_YORK), "consent_missing")
    await add_consent(runtime, ready, NEW_YORK, days=-1)  # expired
    await assert_blocked(ready, await send(ready, to=NEW_YORK), "consent_missing")
    await add_consent(runtime, ready, NEW_YORK)
    assert (await send(ready, to=NEW_YORK)).status_code == 201


async def test_a_reply_makes_the_next_text_responsive(runtime, ready, client):
    freeze(runtime, 6)  # night in New York, and no consent artifact
    await add_sender(runtime, ready)
    await assert_blocked(ready, await send(ready, to=NEW_YORK), "quiet_hours")
    assert (await reply(client, NEW_YORK, "Is the house still available?")).status_code == 200
    response = await send(ready, to=NEW_YORK)
    assert response.status_code == 201, response.text
    assert response.json()["proactive"] is False


async def test_stop_suppresses_start_allows_help_answers(runtime, ready, client):
    person = await contact(ready)
    await add_consent(runtime, ready, NEW_YORK)
    response = await reply(client, NEW_YORK, "  stop. ", sid="SM_stop")
    assert response.status_code == 200
    assert "unsubscribed" in response.text and response.text.startswith("<?xml")
    await assert_blocked(ready, await send(ready, contact_id=person["id"]), "opted_out")
    await assert_blocked(ready, await send(ready, channel="whatsapp", to=NEW_YORK), "opted_out")
    async with runtime.db.transaction() as connection:
        row = (await connection.execute(select(Suppression.__table__))).mappings().one()
    assert row["address"] == NEW_YORK and row["reason"] == "opt_out_reply"
    assert row["evidence"]["keyword"] == "STOP"
    assert row["evidence"]["provider_message_id"] == "SM_stop"

    assert "resubscribed" in (await reply(client, NEW_YORK, "START")).text
    assert (await send(ready, contact_id=person["id"])).status_code == 201
    help_reply = await reply(client, NEW_YORK, "Help")
    assert "STOP" in help_reply.text
    inbound = await listed(ready, direction="INBOUND", contact_id=person["id"])
    assert [item["body"] for item in inbound] == ["Help", "START", "  stop. "]
    assert all(item["status"] == "RECEIVED" for item in inbound)


async def test_inbound_signature_and_tenancy(runtime, ready, other_tenant, client):
    params = {"From": NEW_YORK, "To": SENDER, "Body": "hello", "MessageSid": "SM1"}
    bad = await provider_post(client, "/providers/sms/inbound", params, token="wrong")
    assert_error(bad, 403, "invalid_signature")
    unsigned = await client.post("/providers/sms/inbound", data=params)
    assert_error(unsigned, 403, "invalid_signature")
    assert await listed(ready) == []
    unknown = await reply(client, NEW_YORK, "hello", to="+14155550177")
    assert_error(unknown, 404, "not_found")
    assert (await reply(client, NEW_YORK, "hello")).status_code == 200
    assert len(await listed(ready, direction="INBOUND")) == 1
    assert await listed(other_tenant) == []
    async with runtime.db.transaction() as connection:
        types = (await connection.execute(select(OutboxEvent.__table__.c.type))).scalars().all()
    assert "message.received" in types


async def test_email_is_gated_by_suppression_only(runtime, ready):
    freeze(runtime, 6)  # night everywhere: email has no quiet hours
    response = await send(
        ready, channel="EMAIL", to="Dana@Example.com", subject="Hello", body="Listing attached."
    )
    assert response.status_code == 201, response.text
    assert response.json()["to"] == "dana@example.com"
    from homebase.db.tenancy import TenantSession
    from homebase.kit.ids import new_id

    async with runtime.db.transaction() as connection:
        await TenantSession(connection, ready.id).insert(
            Suppression.__table__,
            {
                "id": new_id("sup"),
                "kind": "email",
                "address": "dana@example.com",
                "reason": "manual",
                "evidence": {},
                "created_at": runtime.clock(),
                "lifted_at": None,
                "lifted_evidence": None,
            },
        )
    await assert_blocked(
        ready,
        await send(ready, channel="email", to="dana@example.com", subject="Again"),
        "opted_out",
    )


async def test_worker_rechecks_gates_before_sending(runtime, ready, client):
    await add_consent(runtime, ready, NEW_YORK)
    created = (await send(ready, to=NEW_YORK)).json()
    await reply(client, NEW_YORK, "STOP")
    await jobs.send_due(runtime)
    stored = (await ready.get(f"/v1/messages/{created['id']}")).json()
    assert stored["status"] == "FAILED" and stored["blocked_reason"] == "opted_out"


async def test_validation(ready):
    assert failing_fields(await send(ready)) == {"to"}
    assert failing_fields(await send(ready, to=NEW_YORK, contact_id="con_x")) == {"to"}
    assert failing_fields(await send(ready, to="not a phone")) == {"to"}
    assert failing_fields(await send(ready, channel="fax", to=NEW_YORK)) == {"channel"}
    assert failing_fields(await send(ready, channel="email", to="a@example.com")) == {"subject"}
    assert failing_fields(await send(ready, to=NEW_YORK, subject="x")) == {"subject"}
    assert failing_fields(await send(ready, to=NEW_YORK, body="x" * 1601)) == {"body"}
    assert failing_fields(await send(ready, to=NEW_YORK, extra=1)) == {"extra"}
    no_phone = (await ready.post("/v1/contacts", json={"first_name": "X"})).json()
    assert failing_fields(await send(ready, contact_id=no_phone["id"])) == {"contact_id"}


async def test_tenant_isolation(runtime, ready, other_tenant):
    await add_consent(runtime, ready, NEW_YORK)
    theirs = await contact(other_tenant)
    assert_error(await send(ready, contact_id=theirs["id"]), 404, "not_found")
    mine = (await send(ready, to=NEW_YORK)).json()
    assert_error(await other_tenant.get(f"/v1/messages/{mine['id']}"), 404, "not_found")
    assert await listed(other_tenant) == []
    assert len(await listed(ready)) == 1


async def test_filters_and_fields(runtime, ready):
    await add_consent(runtime, ready, NEW_YORK)
    person = await contact(ready)
    await send(ready, contact_id=person["id"])
    await send(ready, to=LOS_ANGELES)  # no consent: FAILED
    await send(ready, channel="email", to="x@example.com", subject="s")
    assert len(await listed(ready)) == 3
    assert len(await listed(ready, channel="email")) == 1
    assert len(await listed(ready, status="failed")) == 1
    assert [m["contact_id"] for m in await listed(ready, contact_id=person["id"])] == [person["id"]]
    assert len(await listed(ready, direction="OUTBOUND")) == 3
    slim = await listed(ready, fields="status,from")
    assert set(slim[0]) == {"id", "pii_masked", "status", "from"}
    assert failing_fields(await ready.get("/v1/messages", params={"status": "NOPE"})) == {"status"}


async def test_scopes(runtime, make):
    reader = await make(["messages:read"])
    assert_error(await send(reader, to=NEW_YORK), 403, "insufficient_scope")
    assert (await reader.get("/v1/messages")).status_code == 200
    nobody = await make(["contacts:read"])
    assert_error(await nobody.get("/v1/messages"), 403, "insufficient_scope")


async def test_anonymizing_the_contact_scrubs_its_messages(runtime, ready, client):
    await add_consent(runtime, ready, NEW_YORK)
    person = await contact(ready)
    sent = (await send(ready, contact_id=person["id"], body="Private details")).json()
    await reply(client, NEW_YORK, "My SSN is ...")
    assert (await ready.delete(f"/v1/contacts/{person['id']}")).status_code == 200
    messages = await listed(ready, contact_id=person["id"])
    assert len(messages) == 2
    for message in messages:
        assert message["body"] is None
        assert NEW_YORK not in (message["to"], message["from"])
    stored = (await ready.get(f"/v1/messages/{sent['id']}")).json()
    assert stored["to"] == "+*******0142"
    assert stored["status"] == "FAILED" and "anonymized" in stored["failure_reason"]
    assert await jobs.send_due(runtime) == 0


async def test_openapi_documents_messages(client):
    document = (await client.get("/v1/openapi.json")).json()
    post = document["paths"]["/v1/messages"]["post"]
    assert "422" in post["responses"] and "compliance" in str(post["responses"]["422"])
    assert "quiet_hours" in post["description"]
    message = document["components"]["schemas"]["Message"]
    for name in (
        "channel",
        "direction",
        "status",
        "ai_generated",
        "from",
        "to",
        "failure_reason",
        "pii_masked",
    ):
        assert name in message["properties"]
    assert set(message["required"]) == set(message["properties"])  # null, never absent
    assert message["examples"][0]["status"] == "FAILED"
    create = document["components"]["schemas"]["MessageCreate"]
    assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/MessageCreate"
    )
    assert {example["channel"] for example in create["examples"]} == {"SMS", "WHATSAPP", "EMAIL"}
    blocked = post["responses"]["422"]["content"]["application/json"]
    assert blocked["schema"]["$ref"].endswith("/ErrorEnvelope")
    error = blocked["example"]["error"]
    assert error["code"] == "compliance_blocked" and error["message"].startswith("Blocked (")
    assert {"message_id", "status", "recorded"} <= set(error["details"])
    listing = document["paths"]["/v1/messages"]["get"]
    assert {"contact_id", "channel", "direction", "status", "cursor", "limit", "fields"} <= {
        parameter["name"] for parameter in listing["parameters"]
    }
    assert "/providers/sms/inbound" in document["paths"]


def send_variants(document) -> dict[str, dict]:
    """The send body's variants by channel, as the discriminator maps them."""
    schemas = document["components"]["schemas"]
    create = schemas["MessageCreate"]
    assert create["discriminator"]["propertyName"] == "channel"
    mapping = create["discriminator"]["mapping"]
    assert sorted(set(mapping.values())) == sorted(option["$ref"] for option in create["oneOf"])
    # The deprecated lower-case tags map to the same variants.
    assert {tag: mapping[tag.upper()] for tag in mapping} == mapping
    return {
        channel: schemas[ref.rsplit("/", 1)[-1]]
        for channel, ref in mapping.items()
        if channel.isupper()
    }


async def test_openapi_send_body_is_one_variant_per_channel(client):
    """A generated client sees that EMAIL requires subject and that texts have none: the
    body is a oneOf with a discriminator on channel."""
    document = (await client.get("/v1/openapi.json")).json()
    variants = send_variants(document)
    assert set(variants) == {"SMS", "WHATSAPP", "EMAIL"}
    email, sms, whatsapp = variants["EMAIL"], variants["SMS"], variants["WHATSAPP"]
    # body or the deprecated text: exactly one, a rule no schema states (neither required).
    assert set(email["required"]) == {"channel", "subject"}
    assert "from" not in email["properties"]
    assert email["properties"]["to"]["anyOf"][0]["format"] == "email"
    for text in (sms, whatsapp):
        assert "subject" not in text["properties"] and "from" in text["properties"]
        assert set(text["required"]) == {"channel"}
        assert text["properties"]["body"]["maxLength"] == 1600
    for channel, variant in variants.items():
        assert variant["properties"]["channel"]["enum"] == [channel, channel.lower()]
        assert "const" not in variant["properties"]["channel"]  # it would refuse the lower case
        text = variant["properties"]["text"]
        assert text["deprecated"] is True
        assert text["maxLength"] == variant["properties"]["body"]["maxLength"]
        assert variant["additionalProperties"] is False
        assert [example["channel"] for example in variant["examples"]] == [channel]
        assert all(member.get("description") for member in variant["properties"].values())


async def test_each_channel_rule_answers_400_naming_the_member(ready):
    def only(response) -> dict:
        error = assert_error(response, 400, "validation_failed")
        [item] = error["details"]["errors"]
        return item

    no_subject = only(await send(ready, channel="email", to="a@example.com"))
    assert (no_subject["field"], no_subject["type"], no_subject["message"]) == (
        "subject",
        "missing",
        "is required",
    )
    for channel in ("sms", "WhatsApp", "SMS"):
        item = only(await send(ready, channel=channel, to=NEW_YORK, subject="x"))
        assert (item["field"], item["type"]) == ("subject", "extra_forbidden")
    assert (
        only(
            await send(ready, channel="email", to="a@example.com", subject="s", **{"from": SENDER})
        )["field"]
        == "from"
    )
    assert (
        only(await send(ready, channel="email", to="a@example.com", subject=""))["field"]
        == "subject"
    )
    unknown = only(await send(ready, channel="fax", to=NEW_YORK))
    assert (unknown["field"], unknown["type"], unknown["message"]) == (
        "channel",
        "enum",
        "Input should be 'SMS', 'WHATSAPP' or 'EMAIL'",
    )
    assert only(await send(ready, channel=7, to=NEW_YORK))["field"] == "channel"
    missing = only(await ready.post("/v1/messages", json={"to": NEW_YORK, "body": "Hi"}))
    assert (missing["field"], missing["type"]) == ("channel", "missing")
    assert only(await ready.post("/v1/messages", json=["SMS"]))["field"] == "body"
    # Several failures inside a variant: each by its own name, every one listed.
    fields = failing_fields(await send(ready, channel="email", body="", extra=1))
    assert fields == {"subject", "body", "extra"}


async def test_each_documented_send_example_is_accepted(runtime, ready, client):
    """Every example of the send body and of each variant, sent as it stands (the
    example contact id swapped for a real one), is queued: the document shows nothing
    the service refuses."""
    document = (await client.get("/v1/openapi.json")).json()
    await add_sender(runtime, ready, channel="whatsapp")
    await add_consent(runtime, ready, "+14155550142")
    person = await contact(ready, phone="+1 415 555 0142")
    examples = [
        *document["components"]["schemas"]["MessageCreate"]["examples"],
        *(
            example
            for variant in send_variants(document).values()
            for example in variant["examples"]
        ),
    ]
    assert len(examples) == 6
    for example in examples:
        body = {**example, **({"contact_id": person["id"]} if "contact_id" in example else {})}
        response = await ready.post("/v1/messages", json=body)
        assert response.status_code == 201, (example, response.text)
        assert response.json()["channel"] == example["channel"]
        assert_conforms(document, "POST", "/v1/messages", response)


async def test_openapi_documents_the_provider_callbacks(client):
    """Each callback's form with its required members, an example, the signature header,
    and a real schema for its reply."""
    paths = (await client.get("/v1/openapi.json")).json()["paths"]
    expected = {
        "/providers/sms/inbound": ["From", "To"],
        "/providers/sms/status": ["MessageSid", "MessageStatus", "From"],
    }
    for path, required in expected.items():
        post = paths[path]["post"]
        form = post["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]
        assert form["required"] == required
        assert set(required) <= set(form["examples"][0]) <= set(form["properties"])
        assert [p["name"] for p in post["parameters"]] == ["X-Twilio-Signature"]
        assert post["security"] == []
    twiml = paths["/providers/sms/inbound"]["post"]["responses"]["200"]["content"]
    assert twiml["application/xml"]["example"].startswith("<?xml")
    status = paths["/providers/sms/status"]["post"]["responses"]["200"]["content"]
    assert status["application/json"]["schema"]["$ref"].endswith("/CallbackAccepted")


async def test_whatsapp_inbound_and_refusal_on_the_timeline(runtime, ready, client):
    person = await contact(ready)
    await add_sender(runtime, ready, channel="whatsapp")
    response = await reply(client, f"whatsapp:{NEW_YORK}", "Hola", to=f"whatsapp:{SENDER}")
    assert response.status_code == 200, response.text
    [received] = await listed(ready, direction="INBOUND")
    assert received["channel"] == "WHATSAPP" and received["contact_id"] == person["id"]
    await set_status(runtime, ready, "suspended")
    await assert_blocked(
        ready, await send(ready, channel="whatsapp", contact_id=person["id"]), "account_suspended"
    )
    timeline = (await ready.get(f"/v1/contacts/{person['id']}/events")).json()["data"]
    assert [entry["type"] for entry in timeline][:2] == ["message.failed", "message.received"]
    assert timeline[0]["title"] == "WhatsApp message failed (account_suspended)"


async def test_suppressions_fixture_kind(runtime, ready):
    from homebase.db.tenancy import TenantSession
    from homebase.fixtures.load import load_fixtures

    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, ready.id, clock=runtime.clock)
        created = await load_fixtures(
            session,
            {
                "suppressions": [
                    {"address": "(212) 555-0142"},
                    {"address": "Dana@Example.com", "reason": "bounce"},
                ]
            },
        )
    assert len(created["suppressions"]) == 2
    await add_consent(runtime, ready, NEW_YORK)
    await assert_blocked(ready, await send(ready, to=NEW_YORK), "opted_out")
    await assert_blocked(
        ready, await send(ready, channel="email", to="dana@example.com", subject="s"), "opted_out"
    )


async def test_list_pages_newest_first(runtime, ready):
    ids = [
        (await send(ready, channel="email", to=f"p{i}@example.com", subject="s")).json()["id"]
        for i in range(3)
    ]
    first = (await ready.get("/v1/messages", params={"limit": 2})).json()
    assert [item["id"] for item in first["data"]] == ids[::-1][:2] and first["has_more"]
    second = (
        await ready.get("/v1/messages", params={"limit": 2, "cursor": first["next_cursor"]})
    ).json()
    assert [item["id"] for item in second["data"]] == [ids[0]]
    assert second["has_more"] is False and second["next_cursor"] is None
    masked = first["data"][0]
    assert masked["to"] == "p2@example.com"  # this key holds contacts:read:pii


async def test_messaging_settings_fixture_kind(runtime, ready):
    from homebase.db.tenancy import TenantSession
    from homebase.fixtures.load import load_fixtures
    from homebase.kit.errors import AdminError

    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, ready.id, clock=runtime.clock)
        for wider in ({"sms_window_start": "07:00"}, {"sms_window_end": "22:00"}, {"quiet": True}):
            with pytest.raises(AdminError):
                await load_fixtures(session, {"messaging_settings": [wider]})
        await load_fixtures(
            session,
            {"messaging_settings": [{"sms_window_start": "12:00", "sms_window_end": "17:00"}]},
        )
    await add_consent(runtime, ready, LOS_ANGELES)  # 10:00 or 11:00 there
    await assert_blocked(ready, await send(ready, to=LOS_ANGELES), "quiet_hours")


async def test_every_opt_out_keyword_suppresses_and_start_or_unstop_lifts(runtime, ready, client):
    await add_consent(runtime, ready, NEW_YORK)
    lift = ["START", "unstop", "Start!", "UNSTOP", "start", "Unstop."]
    for word, again in zip(
        ["STOPALL", "unsubscribe", "Cancel", "END", "quit.", "Stop"], lift, strict=True
    ):
        assert "unsubscribed" in (await reply(client, NEW_YORK, word)).text, word
        await assert_blocked(ready, await send(ready, to=NEW_YORK), "opted_out")
        assert "resubscribed" in (await reply(client, NEW_YORK, again)).text, again
        assert (await send(ready, to=NEW_YORK)).status_code == 201, again
    # a sentence longer than six words holding "stop" is an ordinary text
    sentence = "Could you stop by the open house at 5?"
    assert "<Message>" not in (await reply(client, NEW_YORK, sentence)).text
    assert (await send(ready, to=NEW_YORK)).status_code == 201
    async with runtime.db.transaction() as connection:
        rows = (await connection.execute(select(Suppression.__table__))).mappings().all()
    assert len(rows) == 6 and all(row["lifted_at"] is not None for row in rows)
    assert {row["lifted_evidence"]["keyword"] for row in rows} == {"START", "UNSTOP"}


async def test_message_received_event_is_masked(runtime, ready, client):
    person = await contact(ready)
    await reply(client, NEW_YORK, "Is it still available?", sid="SM_in")
    async with runtime.db.transaction() as connection:
        [event] = (
            (
                await connection.execute(
                    select(OutboxEvent.__table__).where(
                        OutboxEvent.__table__.c.type == "message.received"
                    )
                )
            )
            .mappings()
            .all()
        )
    data = webhook_render.masked(event["data"])  # as a delivery carries it
    assert data["from"] == "+*******0142" and data["to"] == "+*******0100"
    assert NEW_YORK not in str(data) and SENDER not in str(data)
    assert (data["channel"], data["direction"], data["contact_id"]) == (
        "SMS",
        "INBOUND",
        person["id"],
    )
    [received] = await listed(ready, direction="INBOUND")
    assert data["id"] == received["id"]
    timeline = (await ready.get(f"/v1/contacts/{person['id']}/events")).json()["data"]
    assert timeline[0]["type"] == "message.received"
    assert timeline[0]["data"]["message_id"] == received["id"]


async def test_inbound_refuses_a_tampered_body_and_any_call_without_a_configured_token(
    runtime, ready, client
):
    signed = {"From": NEW_YORK, "To": SENDER, "Body": "hello", "MessageSid": "SM1"}
    header = signature(TOKEN, "http://127.0.0.1:8000/providers/sms/inbound", signed.items())
    tampered = await client.post(
        "/providers/sms/inbound",
        content=urlencode({**signed, "Body": "STOP"}),
        headers={"content-type": "application/x-www-form-urlencoded", "x-twilio-signature": header},
    )
    assert_error(tampered, 403, "invalid_signature")
    runtime.settings = runtime.settings.model_copy(update={"twilio_auth_token": ""})
    unconfigured = await provider_post(client, "/providers/sms/inbound", signed, token="")
    assert_error(unconfigured, 403, "invalid_signature")
    assert await listed(ready) == []
    async with runtime.db.transaction() as connection:
        assert (await connection.execute(select(Suppression.__table__))).first() is None


async def test_a_retried_inbound_callback_is_recorded_once(runtime, ready, client):
    """The provider retries a callback it got no answer to: same MessageSid, same reply,
    one message, one event, one suppression."""
    first = await reply(client, NEW_YORK, "STOP", sid="SM_retry")
    again = await reply(client, NEW_YORK, "STOP", sid="SM_retry")
    assert again.status_code == 200 and again.text == first.text
    assert "unsubscribed" in again.text
    assert len(await listed(ready, direction="INBOUND")) == 1
    assert len(await listed(ready, direction="OUTBOUND")) == 1  # the keyword reply
    async with runtime.db.transaction() as connection:
        types = (await connection.execute(select(OutboxEvent.__table__.c.type))).scalars().all()
        suppressions = (await connection.execute(select(Suppression.__table__))).all()
    assert types.count("message.received") == 1 and len(suppressions) == 1
    await reply(client, NEW_YORK, "Thanks", sid="SM_other")
    assert len(await listed(ready, direction="INBOUND")) == 2


async def test_a_refusal_keeps_the_specs_form_and_names_its_fix(runtime, tenant):
    """The spec's message and details stand as they were; details.remedy is the gate's
    own next step (compliance/remedies.py)."""
    freeze(runtime, DAYTIME)
    unapproved = (await send(tenant, to=NEW_YORK)).json()["error"]
    assert unapproved["message"] == (
        "Blocked (a2p_not_approved): The workspace has no SMS sending number registered."
    )
    assert set(unapproved["details"]) == {"message_id", "status", "recorded", "reason", "remedy"}
    assert "homebase admin add-sender-number" in unapproved["details"]["remedy"]
    await add_sender(runtime, tenant)
    no_consent = (await send(tenant, to=NEW_YORK)).json()["error"]
    assert no_consent["message"].startswith("Blocked (consent_missing): ")
    assert "POST /v1/leads" in no_consent["details"]["remedy"]
    assert no_consent["details"]["remedy"] != unapproved["details"]["remedy"]
