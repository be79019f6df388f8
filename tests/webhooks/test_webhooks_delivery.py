"""Delivery to a real receiver on 127.0.0.1, driving the worker's jobs directly with a
FrozenClock where the schedule matters. SQLite and PostgreSQL."""

import asyncio
import hashlib
import hmac
import ipaddress
import re
from datetime import UTC, datetime

import orjson
import pytest
from sqlalchemy import select

from homebase.kit.clock import FrozenClock
from homebase.kit.keys import Keyring
from homebase.kit.sealed import seal
from homebase.root.worker import run_until
from homebase.webhooks import SignatureMismatch, dispatcher, jobs, verify
from homebase.webhooks.catalogue_docs import EVENT_DOCS
from homebase.webhooks.delivery import AttemptResult
from tests.support import make_key
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import subscribe, work

UNMASKED = re.compile(rb"555[\s.)-]*01\d\d")


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


async def test_signed_envelope(tenant, runtime, receiver, clock):
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    contact = (
        await tenant.post("/v1/contacts", {"first_name": "Dana", "phone": "+1 415 555 0142"})
    ).json()
    await work(runtime)
    [request] = await receiver.wait_for(1)

    expected = (
        "sha256=" + hmac.new(hook["secret"].encode(), request.body, hashlib.sha256).hexdigest()
    )
    assert request.headers["x-webhook-signature"] == expected
    assert request.headers["x-webhook-event"] == "contact.created"
    assert request.headers["x-webhook-delivery"].startswith("whd_")
    assert request.headers["content-type"] == "application/json"
    verify(hook["secret"], request.body, request.headers, now=clock().timestamp())
    with pytest.raises(SignatureMismatch):
        verify(hook["secret"], request.body + b" ", request.headers, now=clock().timestamp())
    with pytest.raises(SignatureMismatch):  # replayed ten minutes later
        verify(hook["secret"], request.body, request.headers, now=clock().timestamp() + 600)

    body = orjson.loads(request.body)
    assert set(body) == {"event", "tenantId", "occurredAt", "data"}
    assert body["event"] == "contact.created" and body["tenantId"] == tenant.id
    assert body["data"]["event_id"].startswith("evt_")
    assert body["data"]["occurred_at"] == body["occurredAt"]
    assert body["data"]["id"] == contact["id"]
    # Phone numbers are always masked in payloads, whatever the subscriber's scopes.
    assert body["data"]["phone"] == "+* *** *** 0142"
    # No trace of the digits around the last four (random ids may hold "555" by chance).
    assert not re.search(r"415\D{0,3}555|555\D{0,3}0142", request.body.decode())


async def test_schedule_retries_then_fails_after_six(tenant, runtime, receiver, clock):
    receiver.respond = script(500)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    unit = runtime.settings.webhook_backoff_unit_seconds
    await work(runtime)
    await receiver.wait_for(1)
    for wait in (1, 2, 4, 8, 16):
        count = len(receiver.requests)
        clock.advance(seconds=wait * unit - 1)
        await work(runtime)
        assert len(receiver.requests) == count  # nothing early
        clock.advance(seconds=1)
        await work(runtime)
        await receiver.wait_for(count + 1)
    clock.advance(days=2)
    await work(runtime)
    assert len(receiver.requests) == 6
    assert [r.headers["x-webhook-attempt"] for r in receiver.requests] == list("123456")
    assert len({r.headers["x-webhook-delivery"] for r in receiver.requests}) == 1
    assert len({orjson.loads(r.body)["data"]["event_id"] for r in receiver.requests}) == 1
    assert len({r.body for r in receiver.requests}) == 1

    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "failed" and delivery["attempts"] == 6
    assert [a["number"] for a in delivery["attempt_log"]] == [6, 5, 4, 3, 2, 1]
    assert {a["status_code"] for a in delivery["attempt_log"]} == {500}
    assert all(
        a["outcome"] == "failed" and a["latency_ms"] is not None for a in delivery["attempt_log"]
    )


async def test_no_attempt_before_its_time(tenant, runtime, receiver, clock):
    receiver.respond = script(503)
    await subscribe(tenant, receiver.url)
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    await receiver.wait_for(1)
    clock.advance(seconds=59)
    assert await jobs.deliver_due(runtime) == 0
    clock.advance(seconds=1)
    assert await jobs.deliver_due(runtime) == 1


async def test_success_on_a_later_attempt_stops_retries(tenant, runtime, receiver, clock):
    receiver.respond = script(502, 204)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    clock.advance(minutes=1)
    await work(runtime)
    clock.advance(days=1)
    await work(runtime)
    assert len(await receiver.wait_for(2)) == 2
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "succeeded" and delivery["last_status_code"] == 204


@pytest.mark.parametrize("settings_overrides", [{"webhook_timeout_seconds": 0.3}])
async def test_timeout_and_redirect_fail(tenant, runtime, receiver, clock, settings_overrides):
    answers = iter([(200, {}, 2.0), (302, {"Location": "http://127.0.0.1:9/x"}, 0)])
    receiver.respond = lambda request: next(answers, (200, {}, 0))
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    clock.advance(minutes=1)
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    second, first = delivery["attempt_log"]
    assert first["error"] == "no answer within 0.3 s" and first["status_code"] is None
    assert first["latency_ms"] < 2000  # gave up before the receiver's answer (2.0 s) came
    assert second["status_code"] == 302 and "not followed" in second["error"]
    assert len(receiver.requests) == 2  # the redirect target was never asked
    assert delivery["status"] == "pending" and delivery["attempts"] == 2


async def test_deletion_stops_deliveries(tenant, runtime, receiver, clock):
    receiver.respond = script(500)
    hook = await subscribe(tenant, receiver.url)
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    await receiver.wait_for(1)
    assert (await tenant.delete(f"/v1/webhooks/{hook['id']}")).status_code == 200
    await tenant.post("/v1/contacts", {"first_name": "Bo"})
    for _ in range(3):
        clock.advance(hours=1)
        await work(runtime)
    assert len(receiver.requests) == 1


async def test_tenant_isolation_and_event_filter(tenant, other_tenant, runtime, clock):
    mine, theirs = await Receiver().start(), await Receiver().start()
    try:
        await subscribe(tenant, mine.url, ["contact.stage_changed"])
        await subscribe(other_tenant, theirs.url)
        contact = (await tenant.post("/v1/contacts", {"first_name": "Ana"})).json()
        await tenant.patch(f"/v1/contacts/{contact['id']}", {"stage": "NURTURE"})
        await other_tenant.post("/v1/contacts", {"first_name": "Zed"})
        await work(runtime)
        [request] = await mine.wait_for(1)
        assert request.headers["x-webhook-event"] == "contact.stage_changed"
        assert orjson.loads(request.body)["tenantId"] == tenant.id
        [request] = await theirs.wait_for(1)
        assert orjson.loads(request.body)["tenantId"] == other_tenant.id
        await asyncio.sleep(0.05)
        assert len(mine.requests) == 1 and len(theirs.requests) == 1
    finally:
        await mine.stop()
        await theirs.stop()


async def test_subscription_only_gets_events_its_scopes_read(make, runtime, receiver, clock):
    scoped = await make(["webhooks:manage", "leads:read"])
    await subscribe(scoped, receiver.url)  # all events it may read: leads only
    _, writer_key = await make_key(runtime, scoped.id, ["contacts:write"])
    response = await scoped.client.post(
        "/v1/contacts", json={"first_name": "Ana"}, headers={"Authorization": f"token {writer_key}"}
    )
    assert response.status_code == 201
    assert await jobs.fan_out(runtime) >= 1
    assert await jobs.deliver_due(runtime) == 0
    assert receiver.requests == []


async def test_redeliver(tenant, runtime, receiver, clock):
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    path = f"/v1/webhooks/{hook['id']}/deliveries/{delivery['id']}/redeliver"
    response = await tenant.post(path)
    assert response.status_code == 202
    assert response.json()["status"] == "pending"
    await work(runtime)
    first, second = await receiver.wait_for(2)
    assert first.body == second.body
    assert first.headers["x-webhook-delivery"] == second.headers["x-webhook-delivery"]
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "succeeded"
    assert [a["number"] for a in delivery["attempt_log"]] == [2, 1]
    missing = f"/v1/webhooks/{hook['id']}/deliveries/whd_nope/redeliver"
    assert (await tenant.post(missing)).status_code == 404


async def test_private_address_refused_again_at_delivery(tenant, runtime, receiver, clock):
    hook = await subscribe(tenant, receiver.url)  # allowed when it was created
    runtime.settings.webhook_allow_private_urls = False  # now the address is internal
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    [attempt] = delivery["attempt_log"]
    assert attempt["outcome"] == "failed" and "loopback" in attempt["error"]
    assert receiver.requests == []


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    "settings_overrides", [{"webhook_backoff_unit_seconds": 0.04, "worker_poll_seconds": 0.01}]
)
async def test_worker_loop_on_a_scaled_schedule(tenant, runtime, receiver, settings_overrides):
    receiver.respond = script(500, 500, 500, 500, 500, 200)
    await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    stop = asyncio.Event()
    loop = asyncio.create_task(run_until(runtime, stop))
    try:
        requests = await receiver.wait_for(6, within=10)
    finally:
        stop.set()
        await loop
    gaps = [later.at - earlier.at for earlier, later in zip(requests, requests[1:], strict=False)]
    for gap, units in zip(gaps, (1, 2, 4, 8, 16), strict=True):
        assert gap >= units * 0.04 * 0.9, gaps


async def test_sweeper_takes_back_an_expired_lease(tenant, runtime, receiver, clock):
    """A claim whose worker never reports (killed) is released once its lease expires;
    the lost attempt counts and is logged as abandoned, and a late report is ignored."""
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await jobs.fan_out(runtime)
    async with runtime.db.transaction() as connection:
        [lost] = await dispatcher.claim(connection, runtime.settings, clock(), 10)
    assert await jobs.deliver_due(runtime) == 0  # leased: nobody else takes it
    clock.advance(seconds=runtime.settings.webhook_lease_seconds - 1)
    assert await jobs.sweep(runtime) == 0
    clock.advance(seconds=1)
    assert await jobs.sweep(runtime) == 1
    assert await jobs.deliver_due(runtime) == 1
    [request] = await receiver.wait_for(1)
    assert request.headers["x-webhook-attempt"] == "2"
    async with runtime.db.transaction() as connection:  # the dead worker's late report
        await dispatcher.record(
            connection, [(lost, AttemptResult(False, 500, 1, "late"))], clock(), runtime.settings
        )
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "succeeded"
    assert [(a["number"], a["outcome"]) for a in delivery["attempt_log"]] == [
        (2, "succeeded"),
        (1, "abandoned"),
    ]


async def test_operations_emit_their_events_masked(tenant, runtime, receiver, clock):
    await subscribe(tenant, receiver.url)
    contact = (
        await tenant.post(
            "/v1/contacts", {"first_name": "Ana", "tags": ["buyer"], "phone": "+1 415 555 0142"}
        )
    ).json()
    await tenant.patch(
        f"/v1/contacts/{contact['id']}", {"stage": "NURTURE", "tags": ["buyer", "vip"]}
    )
    await tenant.delete(f"/v1/contacts/{contact['id']}")
    lead = await tenant.post(
        "/v1/leads",
        {
            "phone": "+1 415 555 0199",
            "source": "Zillow",
            "skip_routing": True,
            "context": {"alt_phone": "(415) 555-0177"},
        },
    )
    assert lead.status_code == 201, lead.text
    booked = await tenant.post(
        "/v1/appointments",
        {
            "contact_id": lead.json()["contact_id"],
            "title": "Showing",
            "starts_at": "2026-11-21T17:00:00Z",
            "ends_at": "2026-11-21T17:45:00Z",
        },
    )
    assert booked.status_code == 201, booked.text
    path = f"/v1/appointments/{booked.json()['id']}"
    for change in (
        {"starts_at": "2026-11-22T17:00:00Z", "ends_at": "2026-11-22T17:45:00Z"},
        {"outcome": "showed"},
    ):
        assert (await tenant.patch(path, change)).status_code == 200
    while await work(runtime):
        pass
    requests = await receiver.wait_for(10)
    events = [request.headers["x-webhook-event"] for request in requests]
    assert {
        "contact.created",
        "contact.tag_added",
        "contact.updated",
        "contact.stage_changed",
        "lead.created",
        "appointment.booked",
        "appointment.rescheduled",
        "appointment.outcome",
    } <= set(events)
    assert events.count("contact.tag_added") == 2  # buyer at creation, vip on update
    for request in requests:
        # Phone numbers always masked: no number's exchange and line digits in any format
        # (a bare "555" could be part of a record id).
        assert not UNMASKED.search(request.body), request.body
        # The data members are those documented (docs/webhooks.md, the OpenAPI webhooks).
        doc = EVENT_DOCS[request.headers["x-webhook-event"]]
        data = set(orjson.loads(request.body)["data"]) - {"event_id", "occurred_at"}
        documented = set(doc.members) - {"..."}
        assert documented <= data, documented - data
        assert "..." in doc.members or data <= documented, data - documented


async def test_phone_numbers_and_addresses_in_every_string_are_masked(
    tenant, runtime, receiver, clock
):
    """By value, whatever the member is called: free text (a contact's notes) and a lead's
    context included; keys, ids and timestamps stay."""
    await subscribe(tenant, receiver.url, ["contact.created", "lead.created"])
    notes = "Prefers texts to 212.555.1234; assistant: ops@demo-realty.example"
    created = await tenant.post("/v1/contacts", {"first_name": "Ana", "notes": notes})
    assert created.status_code == 201, created.text
    context = {
        "tel": "(415) 555-0177",
        "sms": "4155550188",
        "contact_number": "+1 650 253 0000",
        "referrer": {"email": "sam.lee@example.com", "4155550100": "a key is not masked"},
    }
    lead = await tenant.post(
        "/v1/leads",
        {"phone": "+1 415 555 0199", "source": "Zillow", "skip_routing": True, "context": context},
    )
    assert lead.status_code == 201, lead.text
    while await work(runtime):
        pass
    bodies = {  # (the lead's own contact.created comes too)
        orjson.loads(request.body)["data"]["id"]: orjson.loads(request.body)["data"]
        for request in await receiver.wait_for(3)
    }
    assert bodies[created.json()["id"]]["notes"] == (
        "Prefers texts to ***.***.1234; assistant: o***@demo-realty.example"
    )
    assert bodies[lead.json()["id"]]["context"] == {
        "tel": "(***) ***-0177",
        "sms": "******0188",
        "contact_number": "+* *** *** 0000",
        "referrer": {"email": "s***@example.com", "4155550100": "a key is not masked"},
    }


async def test_an_unreadable_secret_fails_only_its_own_deliveries(tenant, runtime, clock):
    good, broken = await Receiver().start(), await Receiver().start()
    try:
        await subscribe(tenant, good.url)
        lost = await subscribe(tenant, broken.url)
        table = dispatcher.subscriptions
        async with runtime.db.transaction() as connection:  # as if sealed under another key
            await connection.execute(
                table.update()
                .where(table.c.id == lost["id"])
                .values(
                    secret_encrypted=seal(Keyring("another-key"), "webhook-secret", "x", lost["id"])
                )
            )
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        await work(runtime)
        await good.wait_for(1)
        assert broken.requests == []
        [delivery] = (await tenant.get(f"/v1/webhooks/{lost['id']}/deliveries")).json()["data"]
        assert "cannot be decrypted" in delivery["last_error"]
    finally:
        await good.stop()
        await broken.stop()


@pytest.mark.parametrize(
    "settings_overrides", [{"webhook_max_response_bytes": 1024, "webhook_timeout_seconds": 2}]
)
async def test_only_the_capped_part_of_a_reply_is_read(
    tenant, runtime, receiver, clock, settings_overrides
):
    """The reply declares 10 MB, sends 64 KiB and stalls: reading past the cap would time
    out, so a success proves the rest was never read."""
    receiver.respond = lambda request: (200, {}, 0, b"x" * 65536, 10_000_000)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    assert delivery["status"] == "succeeded", delivery


async def test_delivery_fanned_out_as_its_subscription_is_deleted_is_never_sent(
    tenant, runtime, receiver, clock
):
    """PostgreSQL can interleave a fan-out that read the subscription as active with a
    DELETE that commits before the fan-out's insert: the delivery it leaves pending must
    not be claimed (the sweeper, which runs after delivery, then cancels it)."""
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    assert await jobs.fan_out(runtime) == 1
    table = dispatcher.subscriptions
    async with runtime.db.transaction() as connection:  # the DELETE, minus the cancel it missed
        await connection.execute(
            table.update().where(table.c.id == hook["id"]).values(deleted_at=clock())
        )
    assert await jobs.deliver_due(runtime) == 0
    assert await jobs.sweep(runtime) == 1
    await work(runtime)
    assert receiver.requests == []
    async with runtime.db.transaction(write=False) as connection:
        [status] = (await connection.execute(select(dispatcher.deliveries.c.status))).scalars()
    assert status == "cancelled"


async def test_dns_rebinding_is_refused_at_delivery(tenant, runtime, receiver, clock, resolver):
    """The host resolved to a public address when the subscription was made and to
    loopback when the attempt connects: refused. With private addresses allowed the
    attempt reaches the address the guard resolved. Both checks ask the Runtime's
    resolver (here the suite's stub), never the machine's."""
    answer = {"address": "93.184.215.14"}

    async def rebinding(host, port):
        return [ipaddress.ip_address(answer["address"])]

    resolver.names["rebind.test"] = rebinding
    runtime.settings.webhook_allow_private_urls = False
    hook = await subscribe(tenant, f"http://rebind.test:{receiver.port}/hook", ["contact.created"])
    answer["address"] = "127.0.0.1"
    await tenant.post("/v1/contacts", {"first_name": "Ana"})
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    [attempt] = delivery["attempt_log"]
    assert attempt["outcome"] == "failed" and "loopback" in attempt["error"], attempt
    assert receiver.requests == []

    runtime.settings.webhook_allow_private_urls = True
    clock.advance(minutes=1)
    await work(runtime)
    [request] = await receiver.wait_for(1)
    assert request.headers["host"] == f"rebind.test:{receiver.port}"


async def test_an_attempt_that_raises_fails_alone(tenant, runtime, clock, monkeypatch):
    """An unforeseen error in one attempt is recorded as its failure; the rest of the
    concurrent batch is recorded as usual instead of waiting for the sweeper."""
    good, bad = await Receiver().start(), await Receiver().start()
    real_attempt = jobs.attempt

    async def attempt(client, url, body, headers, settings):
        if url == bad.url:
            raise RuntimeError("boom")
        return await real_attempt(client, url, body, headers, settings)

    monkeypatch.setattr(jobs, "attempt", attempt)
    try:
        ok = await subscribe(tenant, good.url, ["contact.created"])
        broken = await subscribe(tenant, bad.url, ["contact.created"])
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        await work(runtime)
        await good.wait_for(1)
    finally:
        await good.stop()
        await bad.stop()
    [delivered] = (await tenant.get(f"/v1/webhooks/{ok['id']}/deliveries")).json()["data"]
    assert delivered["status"] == "succeeded"
    [failed] = (await tenant.get(f"/v1/webhooks/{broken['id']}/deliveries")).json()["data"]
    assert failed["status"] == "pending" and failed["attempt_log"][0]["outcome"] == "failed"
    assert failed["last_error"] == "internal error: RuntimeError"
