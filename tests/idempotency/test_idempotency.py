"""Idempotency-Key on POST under /v1 (homebase/idempotency/), over HTTP on SQLite and
PostgreSQL: replays, mismatches, refusals that store nothing, leases, TTL, the webhook
secret, anonymization, and the side effects that must happen once under concurrency."""

import asyncio
import hashlib
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import func, insert, select

from homebase.db.engine import Database
from homebase.kit.clock import FrozenClock
from homebase.models import AutomationEnrolment, Contact, Lead, Message, OutboxEvent
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests.automations_support import automation
from tests.automations_support import contact as sendable_contact
from tests.kit.test_openapi import assert_conforms
from tests.leads_support import counts, load_team
from tests.messaging_support import NEW_YORK, add_consent, add_sender, freeze
from tests.support import assert_error, failing_fields, make_key
from tests.webhook_receiver import Receiver
from tests.webhooks_support import subscribe, work

DANA = {"first_name": "Dana", "last_name": "Reyes", "phone": "+1 415 555 0142"}


def keyed(tenant, key: str) -> dict[str, str]:
    return {**tenant.headers, "Idempotency-Key": key}


async def post(tenant, path: str, body, key: str, client=None) -> httpx.Response:
    return await (client or tenant.client).post(path, json=body, headers=keyed(tenant, key))


async def rows(runtime, model) -> int:
    table = model.__table__
    async with runtime.db.transaction(write=False) as connection:
        return (await connection.execute(select(func.count()).select_from(table))).scalar_one()


def key_table():
    from homebase.models import IdempotencyKey  # lazily: the tests run against old code too

    return IdempotencyKey


async def stored_keys(runtime) -> list[dict]:
    table = key_table().__table__
    async with runtime.db.transaction(write=False) as connection:
        return [dict(row) for row in (await connection.execute(select(table))).mappings()]


def assert_replay(first: httpx.Response, again: httpx.Response) -> None:
    assert "idempotent-replayed" not in first.headers
    assert again.headers.get("idempotent-replayed") == "true", again.text
    assert again.status_code == first.status_code
    assert again.json() == first.json()


@pytest.fixture
def clock(runtime) -> FrozenClock:
    runtime.clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    return runtime.clock


@pytest.fixture
async def second_instance(runtime):
    """Another server on the same database: its own app, connection pool and limiter."""
    other = Runtime(
        settings=runtime.settings,
        limiter=MemoryLimiter(),
        db=Database(runtime.settings.database_url, pool_size=5),
    )
    other.clock = lambda: runtime.clock()  # the tests' clock, whenever they move it
    transport = httpx.ASGITransport(app=create_app(other), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client
    await other.close()


async def test_a_replay_returns_the_first_answer_and_does_nothing_again(app, runtime, tenant):
    first = await post(tenant, "/v1/contacts", DANA, "create-dana")
    assert first.status_code == 201, first.text
    again = await post(tenant, "/v1/contacts", DANA, "create-dana")
    assert_replay(first, again)
    assert await rows(runtime, Contact) == 1
    assert len([event for event in await _events(runtime) if event == "contact.created"]) == 1
    document = app.openapi()
    assert_conforms(document, "POST", "/v1/contacts", first)
    assert_conforms(document, "POST", "/v1/contacts", again)
    # Without the header, the same request runs again.
    assert (await tenant.post("/v1/contacts", DANA)).status_code == 201
    assert await rows(runtime, Contact) == 2


async def _events(runtime) -> list[str]:
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        return list((await connection.execute(select(table.c.type))).scalars())


async def test_the_same_key_with_another_request_is_422(app, runtime, tenant):
    assert (await post(tenant, "/v1/contacts", DANA, "k1")).status_code == 201
    for response in (
        await post(tenant, "/v1/contacts", {**DANA, "first_name": "Ana"}, "k1"),
        await post(tenant, "/v1/contacts?fields=id", DANA, "k1"),
        await post(tenant, "/v1/deals", {"title": "Noe Valley"}, "k1"),
    ):
        assert_error(response, 422, "idempotency_key_reused")
    assert_conforms(app.openapi(), "POST", "/v1/deals", response)
    assert await rows(runtime, Contact) == 1


async def test_a_key_belongs_to_its_credential(runtime, tenant, other_tenant, make):
    first = await post(tenant, "/v1/contacts", DANA, "shared")
    _, key = await make_key(runtime, tenant.id)
    colleague = {"Authorization": f"token {key}", "Idempotency-Key": "shared"}
    second = await tenant.client.post("/v1/contacts", json=DANA, headers=colleague)
    third = await post(other_tenant, "/v1/contacts", DANA, "shared")
    assert {first.status_code, second.status_code, third.status_code} == {201}
    assert "idempotent-replayed" not in {**second.headers, **third.headers}
    assert len({first.json()["id"], second.json()["id"], third.json()["id"]}) == 3


async def test_a_masked_credential_never_sees_an_unmasked_replay(runtime, tenant):
    first = await post(tenant, "/v1/contacts", DANA, "dana")
    assert first.json()["phone"] == DANA["phone"]
    _, key = await make_key(runtime, tenant.id, ["contacts:read", "contacts:write"])
    masked = await tenant.client.post(
        "/v1/contacts",
        json=DANA,
        headers={"Authorization": f"token {key}", "Idempotency-Key": "dana"},
    )
    assert masked.status_code == 201 and "idempotent-replayed" not in masked.headers
    assert "4155550142" not in masked.text and masked.json()["id"] != first.json()["id"]


async def test_refused_requests_store_nothing(runtime, tenant, make):
    unauthenticated = await tenant.client.post(
        "/v1/contacts",
        json=DANA,
        headers={"Authorization": "token hbk_nope", "Idempotency-Key": "k"},
    )
    assert_error(unauthenticated, 401, "unauthenticated")
    reader = await make(["contacts:read"])
    assert_error(await post(reader, "/v1/contacts", DANA, "k"), 403, "insufficient_scope")
    assert failing_fields(await post(tenant, "/v1/contacts", {"nope": 1}, "k")) == {"nope"}
    bad_json = await tenant.client.post(
        "/v1/contacts",
        content=b"{",
        headers={**keyed(tenant, "k"), "Content-Type": "application/json"},
    )
    assert_error(bad_json, 400, "invalid_json")
    # An error that rolled back did nothing: not stored either, the key may run again.
    assert_error(
        await post(
            tenant,
            "/v1/automations/aut_00000000000000000000000000/enroll",
            {"contact_id": "con_x"},
            "k",
        ),
        404,
        "not_found",
    )
    assert await stored_keys(runtime) == []
    assert (await post(tenant, "/v1/contacts", DANA, "k")).status_code == 201


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_api_key_per_min": 1}])
async def test_a_rate_limited_request_stores_nothing(runtime, tenant, settings_overrides):
    assert (await tenant.get("/v1/ping")).status_code == 200
    assert_error(await post(tenant, "/v1/contacts", DANA, "k"), 429, "rate_limited")
    assert await stored_keys(runtime) == []


async def test_an_empty_or_overlong_key_is_400(runtime, tenant):
    for key in ("", "k" * 256):
        error = assert_error(
            await post(tenant, "/v1/contacts", DANA, key), 400, "validation_failed"
        )
        [item] = error["details"]["errors"]
        assert (item["field"], item["in"]) == ("Idempotency-Key", "header")
    assert await rows(runtime, Contact) == 0
    first = await post(tenant, "/v1/contacts", DANA, "k" * 255)
    assert_replay(first, await post(tenant, "/v1/contacts", DANA, "k" * 255))


async def test_a_5xx_releases_the_key(runtime, tenant, monkeypatch):
    from homebase.contacts import service

    create = service.create_contact
    failures = [RuntimeError("the disk is on fire")]

    async def failing(*args, **kwargs):
        if failures:
            raise failures.pop()
        return await create(*args, **kwargs)

    monkeypatch.setattr(service, "create_contact", failing)
    assert (await post(tenant, "/v1/contacts", DANA, "k")).status_code == 500
    assert await stored_keys(runtime) == [] and await rows(runtime, Contact) == 0
    retried = await post(tenant, "/v1/contacts", DANA, "k")
    assert retried.status_code == 201 and "idempotent-replayed" not in retried.headers


async def test_a_running_key_is_409_until_its_lease_runs_out(runtime, tenant, clock):
    from homebase.idempotency.store import IN_FLIGHT, fingerprint

    # A request that claimed the key and was then killed (SIGKILL): its claim stays.
    now = clock()
    async with runtime.db.transaction() as connection:
        await connection.execute(
            insert(key_table().__table__).values(
                workspace_id=tenant.id,
                credential_kind="api_key",
                credential_id=tenant.key_id,
                key_hash=hashlib.sha256(b"k").hexdigest(),
                owner="req_killed",
                status=IN_FLIGHT,
                fingerprint=fingerprint(
                    "POST", "/v1/contacts", b"", httpx.Request("POST", "/", json=DANA).content
                ),
                lease_expires_at=now + timedelta(seconds=60),
                expires_at=now + timedelta(hours=24),
                created_at=now,
            )
        )
    busy = await post(tenant, "/v1/contacts", DANA, "k")
    assert_error(busy, 409, "idempotency_key_in_use")
    assert busy.headers["retry-after"] == "1"
    assert_error(
        await post(tenant, "/v1/contacts", {"first_name": "Ana"}, "k"),
        422,
        "idempotency_key_reused",
    )
    clock.advance(seconds=61)
    taken_over = await post(tenant, "/v1/contacts", DANA, "k")
    assert taken_over.status_code == 201 and await rows(runtime, Contact) == 1
    assert_replay(taken_over, await post(tenant, "/v1/contacts", DANA, "k"))


async def test_an_expired_key_is_new_again(runtime, tenant, clock):
    first = await post(tenant, "/v1/contacts", DANA, "k")
    clock.advance(hours=23, minutes=59)
    assert_replay(first, await post(tenant, "/v1/contacts", DANA, "k"))
    clock.advance(minutes=2)
    anew = await post(tenant, "/v1/contacts", {"first_name": "Ana"}, "k")
    assert anew.status_code == 201 and await rows(runtime, Contact) == 2
    from homebase.idempotency.store import prune_expired

    async with runtime.db.transaction() as connection:
        assert await prune_expired(connection, clock() + timedelta(hours=25), 10) == 1
    assert await stored_keys(runtime) == []


async def test_stored_answers_are_sealed(runtime, tenant):
    await post(tenant, "/v1/contacts", DANA, "k")
    [row] = await stored_keys(runtime)
    assert row["status"] == "completed" and row["response_status"] == 201
    # Quoted: a sealed body (base64url) holds no quote, so neither can occur by chance.
    assert '"Dana"' not in row["response_body"] and '"+14155550142"' not in row["response_body"]
    assert row["key_hash"] != "k"


async def test_a_webhook_secret_is_never_stored_or_replayed(app, runtime, tenant):
    body = {"url": "http://127.0.0.1:9/hook", "event_types": ["contact.created"]}
    first = await post(tenant, "/v1/webhooks", body, "hook")
    assert first.status_code == 201 and first.json()["secret"].startswith("whsec_")
    again = await post(tenant, "/v1/webhooks", body, "hook")
    assert again.headers["idempotent-replayed"] == "true" and again.status_code == 201
    assert again.json() == {name: value for name, value in first.json().items() if name != "secret"}
    assert_conforms(app.openapi(), "POST", "/v1/webhooks", again)
    from homebase.kit.sealed import unseal

    [row] = await stored_keys(runtime)
    bound = "/".join(
        row[name] for name in ("workspace_id", "credential_kind", "credential_id", "key_hash")
    )
    stored = unseal(runtime.settings.keys, "idempotency-response", row["response_body"], bound)
    assert first.json()["secret"] not in stored and "secret_hint" in stored


async def test_anonymizing_a_contact_deletes_the_answers_naming_it(runtime, tenant):
    dana = (await post(tenant, "/v1/contacts", DANA, "dana")).json()
    ana = await post(tenant, "/v1/contacts", {"first_name": "Ana"}, "ana")
    note = await post(tenant, f"/v1/contacts/{dana['id']}/notes", {"body": "Call back"}, "n")
    assert note.status_code == 201, note.text
    assert len(await stored_keys(runtime)) == 3
    assert (await tenant.delete(f"/v1/contacts/{dana['id']}")).status_code == 200
    [kept] = await stored_keys(runtime)  # Ana's answer stays and still replays
    assert_replay(ana, await post(tenant, "/v1/contacts", {"first_name": "Ana"}, "ana"))
    assert kept["contact_ids"] == f" {ana.json()['id']} "


# The side effects that matter most happen once, with two identical requests sent at the
# same moment through two instances on one database.


async def concurrently(tenant, second_instance, path: str, body, key: str):
    pair = await asyncio.gather(
        post(tenant, path, body, key), post(tenant, path, body, key, client=second_instance)
    )
    winners = [
        response
        for response in pair
        if "idempotent-replayed" not in response.headers and response.status_code < 300
    ]
    assert len(winners) == 1, [(response.status_code, response.text) for response in pair]
    for response in pair:
        if response is not winners[0]:
            if response.status_code == 409:
                assert_error(response, 409, "idempotency_key_in_use")
            else:
                assert_replay(winners[0], response)
    assert_replay(winners[0], await post(tenant, path, body, key, client=second_instance))
    return winners[0]


async def test_one_message_is_sent(runtime, tenant, second_instance):
    freeze(runtime, 18)
    await add_sender(runtime, tenant)
    await add_consent(runtime, tenant, NEW_YORK)
    body = {"channel": "sms", "body": "Hi!", "to": NEW_YORK}
    await concurrently(tenant, second_instance, "/v1/messages", body, "send-once")
    assert await rows(runtime, Message) == 1


async def test_a_recorded_refusal_replays_instead_of_sending_again(runtime, tenant):
    freeze(runtime, 18)  # no sender number: refused by a compliance gate, and recorded
    await add_consent(runtime, tenant, NEW_YORK)
    body = {"channel": "sms", "body": "Hi!", "to": NEW_YORK}
    first = await post(tenant, "/v1/messages", body, "k")
    assert_error(first, 422, "compliance_blocked")
    assert_replay(first, await post(tenant, "/v1/messages", body, "k"))
    assert await rows(runtime, Message) == 1


async def test_one_routing_turn_per_lead(runtime, tenant, second_instance):
    await load_team(
        runtime,
        tenant.id,
        [{"name": "rotate", "method": "round_robin", "agents": ["maya", "luis", "priya"]}],
    )
    body = {"phone": "+1 415 555 0100", "source": "Zillow"}
    await concurrently(tenant, second_instance, "/v1/leads", body, "lead-once")
    after = await counts(runtime)
    assert after["leads"] == 1 and [position for _, position in after["cursors"]] == [1]
    assert await rows(runtime, Lead) == 1


async def test_one_enrolment(runtime, tenant, second_instance):
    automation_id = await automation(runtime, tenant)
    contact_id = await sendable_contact(tenant)
    winner = await concurrently(
        tenant,
        second_instance,
        f"/v1/automations/{automation_id}/enroll",
        {"contact_id": contact_id},
        "enrol-once",
    )
    assert winner.json()["created"] is True
    assert await rows(runtime, AutomationEnrolment) == 1
    assert (await _events(runtime)).count("automation.run") == 1


async def test_one_redelivery(runtime, tenant, second_instance, clock):
    receiver = await Receiver().start()
    try:
        hook = await subscribe(tenant, receiver.url, ["contact.created"])
        await tenant.post("/v1/contacts", {"first_name": "Ana"})
        await work(runtime)
        await receiver.wait_for(1)
        [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
        path = f"/v1/webhooks/{hook['id']}/deliveries/{delivery['id']}/redeliver"
        await concurrently(tenant, second_instance, path, None, "again-once")
        await work(runtime)
        await receiver.wait_for(2)
        # A retry after the redelivery went out replays; it does not send a third time.
        again = await post(tenant, path, None, "again-once")
        assert again.headers["idempotent-replayed"] == "true"
        await work(runtime)
        await asyncio.sleep(0.2)
        assert len(receiver.requests) == 2
    finally:
        await receiver.stop()


def _posts_under_v1(document: dict) -> dict[str, dict]:
    return {
        path: item["post"]
        for path, item in document["paths"].items()
        if path.startswith("/v1/") and "post" in item
    }


def _resolve(document: dict, value: dict) -> dict:
    while "$ref" in value:
        name = value["$ref"].rsplit("/", 1)[1]
        value = document["components"][value["$ref"].split("/")[2]][name]
    return value


async def test_the_document_declares_the_key_and_its_answers_on_every_post_under_v1(app):
    """Enumerated from the document, so a POST added later without them fails here."""
    document = app.openapi()
    posts = _posts_under_v1(document)
    assert len(posts) >= 10 and {
        "/v1/contacts",
        "/v1/messages",
        "/v1/leads",
        "/v1/webhooks",
    } <= set(posts), sorted(posts)
    missing: dict[str, list[str]] = {}
    for path, operation in posts.items():
        problems = missing.setdefault(path, [])
        declared = [_resolve(document, parameter) for parameter in operation.get("parameters", [])]
        keys = [
            parameter for parameter in declared if parameter["name"].lower() == "idempotency-key"
        ]
        if len(keys) != 1:
            problems.append(f"{len(keys)} Idempotency-Key parameters")
        else:
            [key] = keys
            schema = key["schema"]
            if (key["name"], key["in"], key.get("required", False)) != (
                "Idempotency-Key",
                "header",
                False,
            ):
                problems.append(f"the parameter is {key['name']} in {key['in']}")
            if (schema.get("type"), schema.get("minLength"), schema.get("maxLength")) != (
                "string",
                1,
                255,
            ):
                problems.append(f"the parameter's bounds are {schema}")
        responses = {
            status: _resolve(document, response)
            for status, response in operation["responses"].items()
        }
        for status, code in (("409", "idempotency_key_in_use"), ("422", "idempotency_key_reused")):
            answer = responses.get(status)
            if answer is None:
                problems.append(f"no {status}")
                continue
            if code not in answer["description"]:
                problems.append(f"the {status} does not name {code}")
            schema = answer.get("content", {}).get("application/json", {}).get("schema")
            if schema != {"$ref": "#/components/schemas/ErrorEnvelope"}:
                problems.append(f"the {status} is not the error envelope: {schema}")
        if "Retry-After" not in responses.get("409", {}).get("headers", {}):
            problems.append("the 409 has no Retry-After")
        # A replay answers what the first request answered: its success, or its recorded
        # 422 (compliance_blocked); each says Idempotent-Replayed.
        replayable = [status for status in responses if status.startswith("2")] + ["422"]
        for status in replayable:
            header = responses.get(status, {}).get("headers", {}).get("Idempotent-Replayed")
            if header is None:
                problems.append(f"the {status} has no Idempotent-Replayed header")
            elif _resolve(document, header)["schema"].get("enum") != ["true"]:
                problems.append(f"the {status}'s Idempotent-Replayed is not 'true'")
        if not any(status.startswith("2") for status in responses):
            problems.append("no success answer")
    assert {path: problems for path, problems in missing.items() if problems} == {}
    # Outside /v1 (OAuth, provider callbacks) the key is not honoured, nor declared.
    for path, item in document["paths"].items():
        if not path.startswith("/v1/"):
            for operation in item.values():
                names = [
                    _resolve(document, parameter)["name"]
                    for parameter in operation.get("parameters", [])
                ]
                assert "Idempotency-Key" not in names, path


async def test_every_post_the_document_names_checks_the_key(app, tenant):
    """The document and the service agree: each POST under /v1 refuses an overlong key
    (400 naming the header) before it does anything, so each one honours the key."""
    for path in _posts_under_v1(app.openapi()):
        url = path
        while "{" in url:
            start = url.index("{")
            url = url[:start] + "x_00000000000000000000000000" + url[url.index("}") + 1 :]
        response = await post(tenant, url, {}, "k" * 256)
        error = assert_error(response, 400, "validation_failed")
        assert [(item["field"], item["in"]) for item in error["details"]["errors"]] == [
            ("Idempotency-Key", "header")
        ], (path, error)
