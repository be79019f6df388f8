"""No error message repeats a submitted value (docs/decisions.md, "Errors never repeat a
submitted value"): an error is read by credentials that may not read the person's data
(an import's errors, by any contacts:read key without contacts:read:pii), so what a client
sent, an email or a phone number in the wrong place, is never in it; the message names the
field and the rule. Walked on SQLite and PostgreSQL:

- every /v1 operation that takes a JSON body, from its documented example, with each member
  (and each member of a member that is an object or a list of objects) replaced by bad
  values carrying an email address and a phone number, on real objects so a service's own
  checks run too; every query parameter, the custom field filters among them; the ids of
  the path;
- the custom fields of every type, through the contact create and update;
- an import's rows, each member bad in turn, through the worker: the errors the API lists
  and the rows stored in import_errors.
"""

import json
from typing import Any

import pytest
from sqlalchemy import select

from homebase.models import ImportRowError
from tests.dns_support import PUBLIC_ADDRESS
from tests.imports_support import all_errors, drive, start
from tests.test_routes import build_offline_app

EMAIL = "pia.quinn@example.com"
PHONE = "+16465550111"
# What must never appear: the address's local part and the number's digits, whatever form
# an echo would take.
MARKERS = ("pia.quinn", "6465550111")
BAD_VALUES: list[Any] = [
    EMAIL,
    PHONE,
    "pia.quinn@example",  # an email that is not one
    "+1 (646) 555-0111 ext pia.quinn",
    "{pia.quinn} {6465550111}",  # placeholders in a template
    "https://pia.quinn.example:6465550111x/",  # a URL whose port does not parse
    "2026-13-45T6465550111",
    16465550111,
    -16465550111.5,
    [EMAIL, PHONE],
    {"k": EMAIL, "n": 16465550111},
    [{"k": PHONE}],
]
QUERY_VALUES = (EMAIL, PHONE, "pia.quinn@example", "6465550111,pia.quinn")
ERROR_STATUSES = range(400, 500)
CUSTOM_FIELDS = [
    {"key": "note", "type": "text"},
    {"key": "budget", "type": "number"},
    {"key": "move_in", "type": "date"},
    {"key": "approved", "type": "boolean"},
    {"key": "financing", "type": "single_select", "choices": ["cash", "fha"]},
    {"key": "areas", "type": "multi_select", "choices": ["north", "south"]},
]
# Every host the document's examples name resolves to a public address (never connected to).
EXAMPLE_HOSTS = (
    "api.example.com",
    "app.example.com",
    "cdn.example.com",
    "crm.example.com",
    "reyes-realty.example.com",
)

DOCUMENT = build_offline_app().openapi()
SCHEMAS = DOCUMENT["components"]["schemas"]


@pytest.fixture
def settings_overrides() -> dict:
    return {"rate_limit_api_key_per_min": 10_000_000}


@pytest.fixture(autouse=True)
def example_hosts(resolver):
    for host in EXAMPLE_HOSTS:
        resolver.names[host] = [PUBLIC_ADDRESS]


def _example(schema: dict[str, Any]) -> Any:
    while "$ref" in schema:
        schema = SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
    if schema.get("examples"):
        return schema["examples"][0]
    for choice in schema.get("oneOf", []) + schema.get("anyOf", []):
        found = _example(choice)
        if found is not None:
            return found
    return None


def _variants(example: Any) -> list[Any]:
    """The example with one member, or one member of a member, replaced by each bad value."""
    variants = list(BAD_VALUES)
    if not isinstance(example, dict):
        return variants
    for name, value in example.items():
        variants += [{**example, name: bad} for bad in BAD_VALUES]
        listed = isinstance(value, list) and value and isinstance(value[0], dict)
        inner = value[0] if listed else value
        if isinstance(inner, dict):
            for key in inner:
                for bad in BAD_VALUES:
                    changed = {**inner, key: bad}
                    variants.append({**example, name: [changed] if listed else changed})
    return variants


def _custom_values() -> list[dict[str, Any]]:
    """`custom_fields` bodies: each field of the workspace given each bad value."""
    return [{field["key"]: bad} for field in CUSTOM_FIELDS for bad in BAD_VALUES]


def _echoes(text: str) -> bool:
    return any(marker in text for marker in MARKERS)


def _said(answer) -> str:
    try:
        error = answer.json()["error"]
    except (ValueError, KeyError, TypeError):
        return answer.text[:300]
    items = (error.get("details") or {}).get("errors") or []
    listed = "; ".join(f"{item.get('field')}: {item.get('message')}" for item in items)
    return f"{error.get('message', '')} | {listed}"


async def _send(tenant, method: str, url: str, **kwargs: Any):
    return await tenant.client.request(method, url, headers=tenant.headers, **kwargs)


async def _objects(tenant) -> dict[str, str]:
    """Real ids for the path's parameters, so a service's checks after it loads the object
    are reached too; a parameter not here gets an id that names nothing (404)."""
    for field in CUSTOM_FIELDS:
        made = await tenant.post(
            "/v1/custom-fields",
            json={"object": "contacts", "label": field["key"].title(), **field},
        )
        assert made.status_code == 201, made.text
    contact = (await tenant.post("/v1/contacts", json={"first_name": "Dana"})).json()["id"]
    return {"id": contact, "contact_id": contact}


def _path(path: str, ids: dict[str, str], unknown: str = "x_unknown") -> str:
    for part in path.split("/"):
        if part.startswith("{"):
            path = path.replace(part, ids.get(part[1:-1], unknown))
    return path


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in DOCUMENT["paths"].items()
        if path.startswith("/v1/")
        for method, operation in item.items()
    ]


async def test_no_error_answer_repeats_a_submitted_value(tenant):
    ids = await _objects(tenant)
    echoed: list[str] = []
    sent = 0

    async def check(method: str, path: str, url: str, **kwargs: Any) -> None:
        nonlocal sent
        sent += 1
        answer = await _send(tenant, method, url, **kwargs)
        assert answer.status_code < 500, (method, path, kwargs, answer.text)
        if answer.status_code in ERROR_STATUSES and _echoes(answer.text):
            echoed.append(f"{method} {path} {json.dumps(kwargs)[:120]}: {_said(answer)}")

    for method, path, operation in _operations():
        url = _path(path, ids)
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            for variant in _variants(_example(body["schema"])):
                await check(method, path, url, json=variant)
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "query":
                for bad in QUERY_VALUES:
                    await check(method, path, url, params={parameter["name"]: bad})
        if "{" in path:
            await check(method, path, _path(path, {}, unknown=EMAIL))
    for method, url in (("POST", "/v1/contacts"), ("PATCH", f"/v1/contacts/{ids['id']}")):
        for values in _custom_values():
            await check(method, url, url, json={"first_name": "Dana", "custom_fields": values})
    for field in CUSTOM_FIELDS:
        for bad in QUERY_VALUES:
            await check(
                "GET", "/v1/contacts", "/v1/contacts", params={f"custom.{field['key']}": bad}
            )
    assert sent > 2000  # the walk is as wide as it says
    assert not echoed, f"{len(echoed)} answers repeat a value:\n" + "\n".join(echoed[:60])


def _bad_rows(example: dict[str, Any]) -> list[Any]:
    rows = [variant for variant in _variants(example) if isinstance(variant, dict)]
    return rows + [{**example, "custom_fields": values} for values in _custom_values()]


@pytest.mark.parametrize("kind", ["contacts", "leads"])
async def test_an_imports_stored_errors_repeat_no_value(runtime, tenant, kind):
    await _objects(tenant)
    schema = {"contacts": "ContactCreate", "leads": "LeadCreate"}[kind]
    rows = _bad_rows(_example({"$ref": f"#/components/schemas/{schema}"}))
    made = await start(tenant, {"object": kind, "rows": rows[:5000]})
    await drive(runtime)
    errors = await all_errors(tenant, made["id"])
    assert len(errors) > 100  # most rows were refused: the walk reached the checks
    listed = json.dumps(errors)
    assert not _echoes(listed), [item for item in errors if _echoes(json.dumps(item))][:20]
    table = ImportRowError.__table__
    async with runtime.db.transaction(write=False) as connection:
        stored = (await connection.execute(select(table.c.errors))).scalars().all()
    assert len(stored) == len(errors) and not _echoes(json.dumps(stored))
