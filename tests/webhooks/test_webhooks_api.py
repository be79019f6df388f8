"""POST/GET/DELETE /webhooks and the delivery log routes, on SQLite and PostgreSQL."""

import pytest

from homebase.kit.sealed import unseal
from homebase.models import WebhookSubscription
from homebase.outbox.catalogue import EVENT_TYPES
from homebase.webhooks.service import SEAL_PURPOSE
from tests.support import assert_error, failing_fields

URL = "http://127.0.0.1:9/hook"


async def test_create_returns_the_secret_once(tenant, runtime):
    response = await tenant.post("/v1/webhooks", {"url": URL, "event_types": ["contact.created"]})
    assert response.status_code == 201, response.text
    created = response.json()
    assert set(created) == {
        "id",
        "url",
        "event_types",
        "secret",
        "secret_hint",
        "status",
        "disabled_reason",
        "disabled_at",
        "failing_since",
        "created_at",
    }
    assert created["status"] == "active"
    assert created["disabled_reason"] is created["disabled_at"] is created["failing_since"] is None
    assert created["id"].startswith("whk_") and created["secret"].startswith("whsec_")
    assert created["event_types"] == ["contact.created"]
    assert created["secret"].startswith(created["secret_hint"])

    listed = (await tenant.get("/v1/webhooks")).json()
    assert set(listed) == {"data", "next_cursor", "has_more"}
    assert [item["id"] for item in listed["data"]] == [created["id"]]
    one = (await tenant.get(f"/v1/webhooks/{created['id']}")).json()
    for payload in (listed["data"][0], one):
        assert "secret" not in payload
        assert created["secret"] not in str(payload)

    # At rest the secret is sealed, not plain, and opens only for its own row.
    table = WebhookSubscription.__table__
    async with runtime.db.transaction() as connection:
        stored = (await connection.execute(table.select())).mappings().one()
    assert created["secret"] not in str(dict(stored))
    key = runtime.settings.keys
    assert unseal(key, SEAL_PURPOSE, stored["secret_encrypted"], created["id"]) == created["secret"]


async def test_fields_never_narrow_the_secret_away(tenant):
    """The secret is shown only once, so a narrowed creation response still carries it."""
    response = await tenant.post("/v1/webhooks?fields=url", {"url": URL})
    assert response.status_code == 201, response.text
    created = response.json()
    assert set(created) == {"id", "url", "secret"} and created["secret"].startswith("whsec_")


async def test_empty_event_types_subscribe_to_all(tenant):
    response = await tenant.post("/v1/webhooks", {"url": URL})
    assert response.status_code == 201
    assert response.json()["event_types"] == []


async def test_unknown_event_name_is_400(tenant):
    response = await tenant.post(
        "/v1/webhooks", {"url": URL, "event_types": ["contact.created", "nope"]}
    )
    assert failing_fields(response) == {"event_types"}
    assert "item 1 is not an event type" in response.text
    assert "nope" not in response.text  # an error repeats no value that was sent


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"url": ""},
        {"url": URL, "extra": 1},
        {"url": URL, "event_types": "contact.created"},
        {"url": "ftp://example.com/x"},
        {"url": "not a url"},
    ],
)
async def test_invalid_bodies_are_400(tenant, body):
    response = await tenant.post("/v1/webhooks", body)
    assert_error(response, 400, "validation_failed")


async def test_event_the_credential_cannot_read_is_refused(make):
    scoped = await make(["webhooks:manage", "contacts:read"])
    assert (
        await scoped.post("/v1/webhooks", {"url": URL, "event_types": ["contact.created"]})
    ).status_code == 201
    error = assert_error(
        await scoped.post(
            "/v1/webhooks", {"url": URL, "event_types": ["contact.created", "lead.created"]}
        ),
        403,
        "insufficient_scope",
    )
    assert error["details"]["missing_scope"] == "leads:read"


async def test_every_catalogue_event_is_accepted(tenant):
    response = await tenant.post("/v1/webhooks", {"url": URL, "event_types": list(EVENT_TYPES)})
    assert response.status_code == 201
    assert response.json()["event_types"] == list(EVENT_TYPES)


async def test_routes_need_webhooks_manage(make):
    scoped = await make(["contacts:read", "contacts:write"])
    for response in (
        await scoped.get("/v1/webhooks"),
        await scoped.post("/v1/webhooks", {"url": URL}),
        await scoped.delete("/v1/webhooks/whk_x"),
        await scoped.get("/v1/webhooks/whk_x/deliveries"),
    ):
        error = assert_error(response, 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "webhooks:manage"


async def test_delete_then_unknown(tenant):
    created = (await tenant.post("/v1/webhooks", {"url": URL})).json()
    response = await tenant.delete(f"/v1/webhooks/{created['id']}")
    assert response.status_code == 200
    assert response.json() == {"id": created["id"], "deleted": True}
    assert_error(await tenant.delete(f"/v1/webhooks/{created['id']}"), 404, "not_found")
    assert_error(await tenant.get(f"/v1/webhooks/{created['id']}"), 404, "not_found")
    assert (await tenant.get("/v1/webhooks")).json()["data"] == []


async def test_another_workspace_sees_404(tenant, other_tenant):
    created = (await tenant.post("/v1/webhooks", {"url": URL})).json()
    path = f"/v1/webhooks/{created['id']}"
    for response in (
        await other_tenant.get(path),
        await other_tenant.delete(path),
        await other_tenant.get(f"{path}/deliveries"),
        await other_tenant.post(f"{path}/deliveries/whd_x/redeliver"),
    ):
        assert_error(response, 404, "not_found")
    assert (await other_tenant.get("/v1/webhooks")).json()["data"] == []
    assert (await tenant.get(path)).status_code == 200


async def test_list_pages(tenant):
    ids = [(await tenant.post("/v1/webhooks", {"url": URL})).json()["id"] for _ in range(3)]
    first = (await tenant.get("/v1/webhooks", params={"limit": 2})).json()
    assert first["has_more"] and len(first["data"]) == 2
    second = (
        await tenant.get("/v1/webhooks", params={"limit": 2, "cursor": first["next_cursor"]})
    ).json()
    assert not second["has_more"] and second["next_cursor"] is None
    assert sorted(item["id"] for item in first["data"] + second["data"]) == sorted(ids)
    narrowed = (await tenant.get("/v1/webhooks", params={"fields": "url"})).json()
    assert set(narrowed["data"][0]) == {"id", "url"}


async def test_private_urls_are_refused_unless_allowed(tenant, runtime):
    runtime.settings.webhook_allow_private_urls = False
    for url in (
        "http://127.0.0.1:8080/x",
        "http://10.0.0.5/x",
        "http://169.254.169.254/x",
        "http://[::1]/x",
        "http://localhost:9/x",
        "http://metadata.google.internal/x",
    ):
        response = await tenant.post("/v1/webhooks", {"url": url})
        assert failing_fields(response) == {"url"}, url
    runtime.settings.env = "production"
    assert failing_fields(await tenant.post("/v1/webhooks", {"url": "http://8.8.8.8/x"})) == {"url"}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_openapi_documents_every_event(app):
    document = app.openapi()
    assert set(document["webhooks"]) == set(EVENT_TYPES)
    operation = document["webhooks"]["message.sent"]["post"]
    headers = {parameter["name"] for parameter in operation["parameters"]}
    assert {
        "X-Webhook-Event",
        "X-Webhook-Delivery",
        "X-Webhook-Signature",
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
        "X-Webhook-Timestamp",
        "X-Webhook-Signature-Timestamped",
    } <= headers
    deprecated = {p["name"] for p in operation["parameters"] if p.get("deprecated")}
    assert deprecated == {"X-Webhook-Timestamp", "X-Webhook-Signature-Timestamped"}
    data = document["components"]["schemas"]["MessageSentData"]
    assert {"event_id", "occurred_at", "id", "ai_generated", "channel", "to"} <= set(
        data["properties"]
    )
    assert (
        "Emitted by: POST /appointments"
        in document["webhooks"]["appointment.booked"]["post"]["description"]
    )
    assert all(
        item["post"]["description"].startswith("Emitted by: ")
        for item in document["webhooks"].values()
    )
    delete = document["paths"]["/v1/webhooks/{id}"]["delete"]
    assert "200" in delete["responses"]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_openapi_webhook_routes_have_real_schemas_with_examples(app):
    """Every request and 2xx body of /v1/webhooks names a schema whose members are
    required and which (with every schema it refers to) carries an example."""
    document = app.openapi()
    schemas = document["components"]["schemas"]

    def refs(node):
        if isinstance(node, dict):
            if "$ref" in node:
                yield node["$ref"].rsplit("/", 1)[1]
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    def check(name, seen):
        if name in seen:
            return
        seen.add(name)
        schema = schemas[name]
        assert schema.get("examples"), f"{name} has no example"
        # An update names any of its members, and at least one.
        assert schema.get("required") or schema.get("minProperties"), f"{name} requires nothing"
        for inner in refs(schema.get("properties", {})):
            check(inner, seen)

    operations = [
        (path, method, operation)
        for path, item in document["paths"].items()
        if path.startswith("/v1/webhooks")
        for method, operation in item.items()
    ]
    assert len(operations) == 7
    for path, method, operation in operations:
        bodies = [
            response["content"]["application/json"]["schema"]
            for status, response in operation["responses"].items()
            if status.startswith("2")
        ]
        if (method, path) in (("post", "/v1/webhooks"), ("patch", "/v1/webhooks/{id}")):
            bodies.append(operation["requestBody"]["content"]["application/json"]["schema"])
        assert bodies, (method, path)
        for body in bodies:
            # A response narrowed by `fields` is anyOf [<Record>, <Record>Narrowed].
            names = list(refs(body))
            assert 1 <= len(names) <= 2, (method, path, names)
            for name in names:
                check(name, set())
    assert schemas["WebhookCreate"]["required"] == ["url"]
    update = schemas["WebhookUpdate"]
    assert update["minProperties"] == 1 and update["additionalProperties"] is False
    assert update["properties"]["status"]["enum"] == ["active", "disabled"]
    assert (
        update["properties"]["url"]["pattern"]
        == schemas["WebhookCreate"]["properties"]["url"]["pattern"]
    )
    webhook = schemas["Webhook"]["properties"]
    assert webhook["status"]["enum"] == ["active", "disabled"]
    assert {"disabled_reason", "disabled_at", "failing_since"} <= set(
        schemas["Webhook"]["required"]
    )
    assert set(schemas["Attempt"]["properties"]["outcome"]["enum"]) == {
        "in_progress",
        "succeeded",
        "failed",
        "abandoned",
    }
    assert set(schemas["Delivery"]["properties"]["status"]["enum"]) == {
        "pending",
        "succeeded",
        "failed",
        "cancelled",
    }
