"""The server accepts exactly what the OpenAPI document declares, in both directions.

What the document forbids is refused: for every /v1 operation with a JSON body (walked
from the app's own document), bodies its schema refuses (an unknown member where
`additionalProperties` is false, a wrong type for a declared member, a string past its
maxLength, a required member left out, a body that is not an object) are each 400
validation_failed naming that member. tests/kit/test_schemathesis.py runs schemathesis with
every check, negative data included (its default generation mode is positive and
negative, and the coverage phase sends exactly these boundary cases), yet it never caught
`"channel": "sms"` or a `text` member being accepted while the document refused them:
its negative_data_rejection check passes on any of 400, 401, 403, 404, 405, 406, 409, 415,
422, 428, 429 or a 5xx, never reads which member the error names, so a body refused for
another reason (a reference, an unknown id in the path) counts as rejected; and its
negative values are random mutations of the schema (a string outside the enum, a member
with a generated name), which land on the exact values the service also took (`sms`,
`text`) with next to no probability. So this test builds each negative body from the
document itself (an enum value in a case the enum does not list among them: `sms` was
one) and checks the answer names the member it broke.

What the document allows is accepted, except the rules listed in kit/openapi_requests.py
UNSTATED_RULES (the one place, rendered into the document's description): here the two
the document now declares (`sms`, `text`), the U+0000 rule stated on every string, and
decimals past their stored precision; tests/kit/test_schemathesis.py is the broad run.
"""

import copy
import re
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from homebase.auth.scopes import ALL_SCOPES
from homebase.kit.nul import NUL
from homebase.kit.openapi_requests import NO_NUL, UNSTATED_RULES, describe_unstated_rules
from tests.dns_support import PUBLIC_ADDRESS
from tests.kit.test_openapi_references import resolve
from tests.support import assert_error, failing_fields

UNKNOWN = "zz_not_a_member"
FRAMEWORK_PATHS = ("/v1/openapi.json", "/v1/docs")
# A value of each JSON type: a member's wrong type is the first of a type its schema
# does not name (a number for an object; an object for the rest).
TYPED_VALUES = {
    "object": {"an": "object"},
    "array": ["a list"],
    "integer": 12345,
    "string": "a string",
    "boolean": True,
}


@pytest.fixture
def document(app):
    return app.openapi()


def validator(document: dict[str, Any], schema: dict[str, Any]):
    return jsonschema_rs.validator_for({**schema, "components": document["components"]})


def deref(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = resolve(document, schema["$ref"])
    return schema


def json_operations(document: dict[str, Any]):
    """(method, path, body schema) of every /v1 operation taking a JSON body."""
    for path, item in document["paths"].items():
        if not path.startswith("/v1/") or path.startswith(FRAMEWORK_PATHS):
            continue
        for method, operation in item.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                yield method.upper(), path, content["application/json"]["schema"]


def variants(document: dict[str, Any], schema: dict[str, Any]):
    """(object schema, its first example) of a body schema: each oneOf variant apart."""
    schema = deref(document, schema)
    for option in schema.get("oneOf", [schema]):
        option = deref(document, option)
        yield option, copy.deepcopy(option["examples"][0])


def types_of(document: dict[str, Any], member: dict[str, Any]) -> set[str]:
    """The JSON types a member's schema names, through anyOf and references."""
    types: set[str] = set()
    stack = [member]
    while stack:
        node = deref(document, stack.pop())
        kind = node.get("type")
        types.update(kind if isinstance(kind, list) else [kind] if kind else [])
        stack.extend(node.get("anyOf", []) + node.get("oneOf", []))
    return types | ({"integer"} if "number" in types else set())


def string_limit(document: dict[str, Any], member: dict[str, Any]) -> int | None:
    """The maxLength of a member's string form, through anyOf and references."""
    stack = [member]
    while stack:
        node = deref(document, stack.pop())
        if node.get("type") == "string" and "maxLength" in node:
            return node["maxLength"]
        stack.extend(node.get("anyOf", []))
    return None


def enum_of(document: dict[str, Any], member: dict[str, Any]) -> list[Any]:
    """The values a member's enum lists, through anyOf and references."""
    stack = [member]
    while stack:
        node = deref(document, stack.pop())
        if "enum" in node:
            return node["enum"]
        stack.extend(node.get("anyOf", []))
    return []


def forbidden_bodies(document: dict[str, Any], schema: dict[str, Any]):
    """(description, body, the member a refusal must name) for each way to break it."""
    yield "not an object", ["a list"], "body"
    for option, example in variants(document, schema):
        members = option.get("properties", {})
        if option.get("additionalProperties") is False:
            yield "unknown member", {**example, UNKNOWN: 1}, UNKNOWN
        for name in option.get("required", []):
            yield f"{name} missing", {k: v for k, v in example.items() if k != name}, name
        for name, member in members.items():
            types = types_of(document, member)
            wrong = next(value for kind, value in TYPED_VALUES.items() if kind not in types)
            yield f"{name} of a wrong type", {**example, name: wrong}, name
            values = enum_of(document, member)
            lower = [v.lower() for v in values if isinstance(v, str) and v.lower() != v]
            if lower and lower[0] not in values:  # a case the enum does not list
                yield f"{name} in lower case", {**example, name: lower[0]}, name
            limit = string_limit(document, member)
            if limit is not None:
                yield f"{name} too long", {**example, name: "7" * (limit + 1)}, name


def path_of(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "zz_unknown", path)


async def test_every_body_the_document_forbids_is_400_naming_the_member(document, make, resolver):
    # The webhook example's host: its lookup runs before validation (webhooks/endpoints.py).
    resolver.names["crm.example.com"] = [PUBLIC_ADDRESS]
    problems, sent = [], 0
    for method, path, schema in json_operations(document):
        tenant = await make(ALL_SCOPES)  # a key per operation: each within its rate limit
        body_validator = validator(document, schema)
        for what, body, member in forbidden_bodies(document, schema):
            if body_validator.is_valid(body):
                problems.append(f"{method} {path} {what}: the document allows {body}")
                continue
            response = await tenant.client.request(
                method, path_of(path), json=body, headers=tenant.headers
            )
            sent += 1
            if response.status_code != 400 or failing_fields(response) != {member}:
                problems.append(
                    f"{method} {path} {what}: {response.status_code} {response.text[:300]}"
                )
    assert not problems, "\n".join(problems)
    assert sent > 150  # every operation's members were tried


async def test_a_body_sent_where_none_is_declared_is_ignored(document, tenant):
    """POST .../redeliver and the DELETEs declare no body: one sent anyway is not read (no
    content type, JSON or U+0000 check), so the answer is the one without it (the body
    limit still applies to it, before anything else)."""
    bodiless = [
        (method.upper(), path)
        for path, item in document["paths"].items()
        if path.startswith("/v1/")
        for method, operation in item.items()
        if method in ("post", "put", "patch", "delete") and "requestBody" not in operation
    ]
    assert ("POST", "/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver") in bodiless
    for method, path in bodiless:
        url = path_of(path)
        plain = await tenant.client.request(method, url, headers=tenant.headers)
        for content, kind in (
            (b'{"zz": 1}', "application/json"),
            (b'{"zz": "\\u0000"}', "application/json"),
            (b"not json", "text/plain"),
        ):
            headers = {**tenant.headers, "Content-Type": kind}
            answer = await tenant.client.request(method, url, content=content, headers=headers)
            assert (answer.status_code, answer.json()["error"]["code"]) == (
                plain.status_code,
                plain.json()["error"]["code"],
            ), (method, path, content)
        assert_error(plain, 404, "not_found")


# The other direction: what the document allows is accepted.


def test_the_unstated_rules_are_in_the_document(document):
    assert describe_unstated_rules() in document["info"]["description"]
    operations = {
        f"{method.upper()} {path}" for path, item in document["paths"].items() for method in item
    }
    for rule in UNSTATED_RULES:
        assert set(rule.operations) <= operations, rule
        assert rule.members and rule.rule, rule


async def test_the_deprecated_forms_the_service_takes_are_declared(document, tenant):
    """`sms` (any case) and `text` for `body`: accepted since v1, now in the document."""
    messages = deref(
        document, next(s for m, p, s in json_operations(document) if p == "/v1/messages")
    )
    assert messages["discriminator"]["mapping"]["sms"].endswith("/SmsSend")
    sms = deref(document, {"$ref": messages["discriminator"]["mapping"]["sms"]})
    assert sms["properties"]["channel"]["enum"] == ["SMS", "sms"]
    assert sms["properties"]["text"]["deprecated"] is True
    assert "body" not in sms["required"]
    check = validator(document, messages)
    accepted = {"channel": "sms", "to": "+14155550142", "text": "Hi Dana"}
    assert check.is_valid(accepted)
    response = await tenant.post("/v1/messages", json=accepted)
    assert response.status_code in (201, 422), response.text  # sent, or a gate's refusal
    assert response.json().get("body", "Hi Dana") == "Hi Dana"
    both = {**accepted, "body": "Hi"}
    assert failing_fields(await tenant.post("/v1/messages", json=both)) == {"text"}
    neither = {"channel": "sms", "to": "+14155550142"}
    assert failing_fields(await tenant.post("/v1/messages", json=neither)) == {"body"}


def request_strings(document: dict[str, Any]):
    """(where, schema) of every string schema a /v1 request carries, through references."""
    seen: set[str] = set()
    stack: list[tuple[str, Any]] = []
    for path, item in document["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                if parameter["in"] in ("path", "query"):
                    stack.append((f"{method} {path} {parameter['name']}", parameter["schema"]))
            for _, _, schema in json_operations({"paths": {path: {method: operation}}}):
                stack.append((f"{method} {path} body", schema))
    while stack:
        where, node = stack.pop()
        if not isinstance(node, dict):
            continue
        if "$ref" in node:
            if node["$ref"] not in seen:
                seen.add(node["$ref"])
                stack.append((node["$ref"], resolve(document, node["$ref"])))
            continue
        if node.get("type") == "string" and not {"enum", "const"} & node.keys():
            yield where, node
        for key, value in node.items():
            if key in ("properties", "$defs"):
                stack.extend((f"{where}.{name}", inner) for name, inner in value.items())
            elif key in ("anyOf", "oneOf", "allOf", "prefixItems"):
                stack.extend((where, inner) for inner in value)
            elif key in ("items", "additionalProperties", "propertyNames"):
                stack.append((where, value))


def test_every_request_string_has_a_pattern(document):
    """U+0000 is refused in every string a request carries (kit/nul.py), so each one's
    schema says so: NO_NUL, or a pattern of its own (checked below to exclude it)."""
    strings = list(request_strings(document))
    assert len(strings) > 100
    assert [where for where, schema in strings if "pattern" not in schema] == []
    for schema in (
        deref(document, {"$ref": "#/components/schemas/LeadCreate"}),
        deref(document, {"$ref": "#/components/schemas/ConsentIn"}),
    ):
        free_form = [
            member
            for member in schema["properties"].values()
            for option in [member, *member.get("anyOf", [])]
            if option.get("additionalProperties") is True
        ]
        assert free_form
        for member in free_form:
            option = next(o for o in [member, *member.get("anyOf", [])] if "propertyNames" in o)
            assert option["propertyNames"] == {"pattern": NO_NUL, "maxLength": 128}


def own_patterns(document: dict[str, Any]) -> list[str]:
    return sorted({schema["pattern"] for _, schema in request_strings(document)} - {NO_NUL})


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_each_own_pattern_refuses_nul(app, data):
    """A string matching a member's own pattern, with U+0000 put anywhere in it, matches
    no longer (Python's `re` reads these patterns as ECMA-262 does)."""
    for pattern in own_patterns(app.openapi()):
        text = data.draw(st.from_regex(pattern), label=pattern)
        at = data.draw(st.integers(0, len(text)))
        assert not re.search(pattern, text[:at] + NUL + text[at:]), pattern


async def test_nul_is_declared_where_schemathesis_found_it_refused(document, tenant):
    """The strings schemathesis sent with U+0000 (a cursor, a context key, a tag, a path
    id, a body value): the document refuses each, as the service does, naming it."""
    cursor = next(
        p for p in document["paths"]["/v1/messages"]["get"]["parameters"] if p["name"] == "cursor"
    )
    assert not validator(document, cursor["schema"]).is_valid("a\x00b")
    for component, member, value in [
        ("LeadCreate", "context", {"bad\x00key": 1}),
        ("ContactCreate", "tags", ["a\x00"]),
        ("NoteCreate", "body", "a\x00b"),
    ]:
        schema = deref(document, {"$ref": f"#/components/schemas/{component}"})
        assert not validator(document, schema["properties"][member]).is_valid(value), member
    lead = {"phone": "+1 415 555 0142", "source": "Zillow", "context": {"bad\x00key": 1}}
    assert failing_fields(await tenant.post("/v1/leads", json=lead)) == {"context.bad\\u0000key"}
    assert failing_fields(await tenant.get("/v1/messages", params={"cursor": "a\x00"})) == {
        "cursor"
    }


@pytest.mark.parametrize(
    "component, member, value, accepted",
    [
        ("DealCreate", "commission_rate", 2.55, True),
        ("DealCreate", "commission_rate", 2.555, False),
        ("DealCreate", "commission_rate", 100.01, False),
        ("DealCreate", "value", 450000.25, True),
        ("DealCreate", "value", 450000.255, False),
        ("DealCreate", "value", 10000000000000, False),
    ],
)
def test_decimal_members_state_their_stored_precision(document, component, member, value, accepted):
    """A JSON number past two decimal places (or past the bounds) is refused; the number
    branch says so with multipleOf and maximum, as the string branch does with a pattern."""
    schema = deref(document, {"$ref": f"#/components/schemas/{component}"})
    assert validator(document, schema["properties"][member]).is_valid(value) is accepted


@pytest.mark.parametrize("value, accepted", [("2.5", True), ("2.55", False), ("1000.1", False)])
async def test_min_baths_states_its_one_decimal_place(document, tenant, value, accepted):
    parameter = next(
        p
        for p in document["paths"]["/v1/listings"]["get"]["parameters"]
        if p["name"] == "min_baths"
    )
    number = next(o for o in parameter["schema"]["anyOf"] if o.get("type") == "number")
    assert validator(document, number).is_valid(float(value)) is accepted
    response = await tenant.get("/v1/listings", params={"min_baths": value})
    assert (response.status_code == 200) is accepted
    if not accepted:
        assert failing_fields(response) == {"min_baths"}


async def test_deal_numbers_at_the_stated_precision_are_accepted(tenant):
    """The service takes what multipleOf allows, as JSON numbers (a pipeline of this
    workspace is needed for a 201; a 400 would name the number first if refused)."""
    for member, value in (("commission_rate", 2.55), ("value", 450000.25)):
        response = await tenant.post(
            "/v1/deals", json={"pipeline_id": "ppl_unknown", "title": "T", member: value}
        )
        assert failing_fields(response) == {"pipeline_id"}, response.text
        response = await tenant.post(
            "/v1/deals",
            json={"pipeline_id": "ppl_unknown", "title": "T", member: value + 0.005},
        )
        assert member in failing_fields(response), response.text
