"""The request bodies' rules are in the document: a rule a validator
or a service checks is stated there the way client generators read it (required, pattern,
maxLength, dependentRequired, a oneOf with a discriminator), so a client built from the
document does not send what the service refuses. Each probe below is refused by the
document's own schema and by the service, naming the same member."""

import pytest

from homebase.kit.money import AMOUNT_PATTERN, PERCENT_PATTERN
from homebase.kit.schema_rules import NOT_BLANK
from tests.calendar_support import book, contact, slot
from tests.kit.test_openapi import component, conform, json_schema
from tests.support import failing_fields


@pytest.fixture
def document(app):
    return app.openapi()


def body_schema(document, method: str, path: str) -> dict:
    operation = document["paths"][path][method.lower()]
    return json_schema(operation["requestBody"])


def test_each_rule_is_in_the_document(document):
    schemas = document["components"]["schemas"]
    assert schemas["AppointmentUpdate"]["dependentRequired"] == {
        "starts_at": ["ends_at"],
        "ends_at": ["starts_at"],
    }
    assert "together" in schemas["AppointmentUpdate"]["description"]
    for name in (
        "AppointmentCreate",
        "AppointmentUpdate",
        "DealCreate",
        "DealUpdate",
        "TaskCreate",
    ):
        assert schemas[name]["properties"]["title"]["pattern"] == NOT_BLANK, name
    for name in ("DealCreate", "DealUpdate"):
        members = schemas[name]["properties"]
        for member, pattern in (
            ("value", AMOUNT_PATTERN),
            ("commission_amount", AMOUNT_PATTERN),
            ("commission_rate", PERCENT_PATTERN),
        ):
            decimal = members[member]["anyOf"][0]["anyOf"]
            assert {"type": "string", "pattern": pattern} in decimal, (name, member)
    url = schemas["WebhookCreate"]["properties"]["url"]
    assert url["format"] == "uri" and url["pattern"].startswith("^[Hh][Tt][Tt][Pp][Ss]?://")
    source_url = schemas["ConsentIn"]["properties"]["source_url"]["anyOf"][0]
    assert source_url["format"] == "uri" and "pattern" in source_url
    assert schemas["ConsentIn"]["required"] == []


async def test_what_the_document_refuses_the_service_refuses(document, tenant):
    contact_id = await contact(tenant)
    appointment = (await book(tenant, contact_id))["id"]
    sms = {"channel": "SMS", "to": "+14155550142"}
    probes = [
        ("POST", "/v1/tasks", "/v1/tasks", {"title": "   "}, "title"),
        (
            "POST",
            "/v1/appointments",
            "/v1/appointments",
            {"contact_id": contact_id, "title": " ", **slot(9)},
            "title",
        ),
        (
            "PATCH",
            "/v1/appointments/{id}",
            f"/v1/appointments/{appointment}",
            {"starts_at": "2026-11-22T18:00:00Z"},
            "ends_at",
        ),
        (
            "PATCH",
            "/v1/appointments/{id}",
            f"/v1/appointments/{appointment}",
            {"ends_at": "2026-11-22T18:45:00Z"},
            "starts_at",
        ),
        (
            "POST",
            "/v1/deals",
            "/v1/deals",
            {"pipeline_id": "ppl_x", "title": "T", "value": "12.345"},
            "value",
        ),
        (
            "POST",
            "/v1/deals",
            "/v1/deals",
            {"pipeline_id": "ppl_x", "title": "T", "commission_rate": "2.505"},
            "commission_rate",
        ),
        ("POST", "/v1/webhooks", "/v1/webhooks", {"url": "ftp://hooks.example.com/x"}, "url"),
        (
            "POST",
            "/v1/webhooks",
            "/v1/webhooks",
            {"url": "https://user:pw@hooks.example.com/x"},
            "url",
        ),
        (
            "POST",
            "/v1/webhooks",
            "/v1/webhooks",
            {"url": "https://hooks.example.com/x#part"},
            "url",
        ),
        (
            "POST",
            "/v1/leads",
            "/v1/leads",
            {"phone": "+14155550142", "source": "Zillow", "consent": {"source_url": "form"}},
            "consent.source_url",
        ),
        ("POST", "/v1/messages", "/v1/messages", {**sms, "body": "x" * 1601}, "body"),
        ("POST", "/v1/messages", "/v1/messages", {**sms, "body": "x", "subject": "s"}, "subject"),
        (
            "POST",
            "/v1/messages",
            "/v1/messages",
            {"channel": "EMAIL", "to": "a@example.com", "body": "x"},
            "subject",
        ),
    ]
    problems = []
    for method, path, url, body, field in probes:
        if not conform(document, body_schema(document, method, path), body):
            problems.append(f"{method} {path} {body}: the document allows it")
        response = await tenant.client.request(method, url, json=body, headers=tenant.headers)
        if response.status_code != 400 or failing_fields(response) != {field}:
            problems.append(f"{method} {path} {body}: {response.status_code} {response.text[:300]}")
    assert not problems, "\n".join(problems)


def test_the_money_patterns_take_the_documented_examples(document):
    deal = component(document, "#/components/schemas/DealCreate")
    assert not conform(document, deal, deal["examples"][0])
    assert conform(document, deal, {**deal["examples"][0], "value": "1,450,000"})
