"""The rules between a body's members that the document now states, each checked in both
directions on SQLite and PostgreSQL: a body the document's schema allows is accepted, and
one it refuses is 400 naming the member the table says.

- POST /v1/custom-fields: one variant by `type` (a `oneOf` with a discriminator): a
  select requires `choices`, distinct; the other types take none (null at most).
- POST /v1/imports: one variant by `object`: `match_on` for contacts only, `skip_routing`
  true for leads only (a contacts import may send false, as v1 always took).
- POST /v1/messages: in each channel's variant, exactly one of `contact_id` and `to`
  (null counting as not sent) and exactly one of `body` and the deprecated `text`
  (kit/schema_rules.exactly_one).
"""

from typing import Any

import pytest

from tests.kit.test_request_rules import json_operations, validator
from tests.support import failing_fields

ACCEPTED = None  # the table's answer for a body both accept


@pytest.fixture
def document(app):
    return app.openapi()


def body_validator(document: dict[str, Any], method: str, path: str):
    (schema,) = [s for m, p, s in json_operations(document) if (m, p) == (method, path)]
    return validator(document, schema)


async def agree(document, tenant, method: str, path: str, body: dict, failing: str | None):
    """The document's verdict and the service's answer agree with the table."""
    declared = body_validator(document, method, path).is_valid(body)
    assert declared is (failing is ACCEPTED), (body, "the document disagrees")
    response = await tenant.client.request(method, path, json=body, headers=tenant.headers)
    if failing is ACCEPTED:
        # Accepted: created, or (a send) refused by a compliance gate, never a 400.
        assert response.status_code in (201, 202, 422), (body, response.text)
        assert response.json().get("error", {}).get("code") in (None, "compliance_blocked")
    else:
        assert failing_fields(response) == {failing}, (body, response.text)


FIELD = {"object": "contacts", "label": "A field"}
FIELD_CASES = [
    ({"type": "text"}, ACCEPTED),
    ({"type": "number", "choices": None}, ACCEPTED),
    ({"type": "date"}, ACCEPTED),
    ({"type": "boolean"}, ACCEPTED),
    ({"type": "single_select", "choices": ["cash", "fha"]}, ACCEPTED),
    ({"type": "multi_select", "choices": ["a"]}, ACCEPTED),
    ({"type": "text", "choices": ["a"]}, "choices"),
    ({"type": "boolean", "choices": []}, "choices"),
    ({"type": "single_select"}, "choices"),
    ({"type": "multi_select", "choices": None}, "choices"),
    ({"type": "single_select", "choices": ["a", "a"]}, "choices"),
    ({"type": "single_select", "choices": []}, "choices"),
    ({"type": "money"}, "type"),
    ({"type": 5}, "type"),
    ({}, "type"),
]


def test_a_custom_fields_variants_are_in_the_document(document):
    schemas = document["components"]["schemas"]
    mapping = schemas["CustomFieldCreate"]["discriminator"]["mapping"]
    assert {tag: ref.rsplit("/", 1)[-1] for tag, ref in mapping.items()} == {
        "text": "CustomPlainFieldCreate",
        "number": "CustomPlainFieldCreate",
        "date": "CustomPlainFieldCreate",
        "boolean": "CustomPlainFieldCreate",
        "single_select": "CustomSelectFieldCreate",
        "multi_select": "CustomSelectFieldCreate",
    }
    select = schemas["CustomSelectFieldCreate"]
    assert "choices" in select["required"] and select["properties"]["choices"]["uniqueItems"]
    assert schemas["CustomPlainFieldCreate"]["properties"]["choices"]["type"] == "null"
    imports = schemas["ImportCreate"]["discriminator"]["mapping"]
    assert set(imports) == {"contacts", "leads"}
    assert "match_on" not in schemas["LeadsImportCreate"]["properties"]
    assert schemas["ContactsImportCreate"]["properties"]["skip_routing"]["const"] is False


@pytest.mark.parametrize(("body", "failing"), FIELD_CASES)
async def test_a_custom_fields_choices_by_its_type(document, tenant, body, failing):
    key = f"field_{FIELD_CASES.index((body, failing))}"
    await agree(
        document, tenant, "POST", "/v1/custom-fields", {**FIELD, "key": key, **body}, failing
    )


ROWS = {"rows": [{"first_name": "Dana", "phone": "+1 415 555 0142"}]}
IMPORT_CASES = [
    ({"object": "contacts"}, ACCEPTED),
    ({"object": "contacts", "match_on": []}, ACCEPTED),
    ({"object": "contacts", "match_on": ["phone"], "skip_routing": False}, ACCEPTED),
    ({"object": "leads"}, ACCEPTED),
    ({"object": "leads", "skip_routing": True}, ACCEPTED),
    ({"object": "contacts", "skip_routing": True}, "skip_routing"),
    ({"object": "contacts", "skip_routing": "no"}, "skip_routing"),
    ({"object": "contacts", "skip_routing": 0}, "skip_routing"),
    ({"object": "leads", "skip_routing": 1}, "skip_routing"),
    ({"object": "leads", "match_on": []}, "match_on"),
    ({"object": "leads", "match_on": ["email"]}, "match_on"),
    ({"object": "contacts", "match_on": ["email", "email"]}, "match_on"),
    ({"object": "deals"}, "object"),
    ({}, "object"),
]


@pytest.mark.parametrize(("body", "failing"), IMPORT_CASES)
async def test_an_imports_options_by_its_object(document, tenant, body, failing):
    await agree(document, tenant, "POST", "/v1/imports", {**ROWS, **body}, failing)


PHONE = "+14155550142"
MESSAGE_CASES = [
    ({"channel": "SMS", "body": "Hi"}, {"contact_id"}, ACCEPTED),
    ({"channel": "sms", "to": PHONE, "body": "Hi"}, set(), ACCEPTED),
    ({"channel": "SMS", "to": None, "body": "Hi"}, {"contact_id"}, ACCEPTED),
    ({"channel": "SMS", "contact_id": None, "to": PHONE, "text": "Hi"}, set(), ACCEPTED),
    ({"channel": "SMS", "to": PHONE, "body": "Hi"}, {"contact_id"}, "to"),
    ({"channel": "SMS", "body": "Hi"}, set(), "to"),
    ({"channel": "SMS", "contact_id": None, "to": None, "body": "Hi"}, set(), "to"),
    ({"channel": "SMS", "to": PHONE, "body": "Hi", "text": "Hi"}, set(), "text"),
    ({"channel": "SMS", "to": PHONE}, set(), "body"),
    ({"channel": "WHATSAPP", "to": PHONE, "text": "Hi"}, set(), ACCEPTED),
    ({"channel": "WHATSAPP", "body": "Hi", "text": "Hi"}, {"contact_id"}, "text"),
    ({"channel": "EMAIL", "subject": "S", "body": "Hi"}, {"contact_id"}, ACCEPTED),
    ({"channel": "EMAIL", "to": "dana@example.com", "subject": "S", "text": "Hi"}, set(), ACCEPTED),
    (
        {"channel": "EMAIL", "to": "d@example.com", "subject": "S", "body": "Hi"},
        {"contact_id"},
        "to",
    ),
    ({"channel": "EMAIL", "to": "dana@example.com", "subject": "S"}, set(), "body"),
    # What schemathesis found the service took though the document refuses it.
    (
        {"channel": "EMAIL", "subject": "S", "body": "Hi", "ai_generated": 0},
        {"contact_id"},
        "ai_generated",
    ),
    ({"channel": "SMS", "to": PHONE, "body": "Hi", "ai_generated": True}, set(), ACCEPTED),
    ({"channel": "EMAIL", "subject": "A\x1eB", "body": "Hi"}, {"contact_id"}, "subject"),
    ({"channel": "EMAIL", "subject": "A\u2028B", "body": "Hi"}, {"contact_id"}, "subject"),
    ({"channel": "EMAIL", "subject": "A\tB", "body": "Hi"}, {"contact_id"}, ACCEPTED),
]


@pytest.mark.parametrize(("body", "with_contact", "failing"), MESSAGE_CASES)
async def test_a_sends_recipient_and_body_in_each_channels_variant(
    document, tenant, body, with_contact, failing
):
    contact = await tenant.post("/v1/contacts", json={"phone": PHONE, "email": "d@example.com"})
    assert contact.status_code == 201, contact.text
    sent = {**body, **{member: contact.json()["id"] for member in with_contact}}
    await agree(document, tenant, "POST", "/v1/messages", sent, failing)
