"""Every time a request carries, in a query or a body, is read by the one parser
(kit/schema_rules.Moment; a consent's captured_at, which also takes a Unix time, by its
range check): a time whose UTC leaves the years 1 to 9999 is a 400 naming the parameter,
never a 500, on both databases; the extremes inside the range are no 500 either. The
table is held complete against the OpenAPI document: a new time parameter fails
`test_the_table_holds_every_time_parameter_of_the_document` until it is added here."""

import hashlib
import hmac
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from homebase.kit.schema_rules import IN_RANGE_PATTERN, MOMENT_PATTERN
from tests import calendar_support
from tests.crm_support import ROUTES_PROVIDER_SECRET
from tests.support import failing_fields

# The two probes: a year-1 time east of UTC, a year-9999 time west of it.
OUT_OF_RANGE = ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00")
# The first and last instants of the range, in UTC.
EXTREMES = ("0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z")
LATER = "2026-11-21T18:00:00Z"


@dataclass(frozen=True)
class Probe:
    """One time parameter: how to send a request carrying `value` in it."""

    operation: str  # "GET /v1/events", as the document spells it
    member: str  # the parameter, or the body member's dotted path
    send: Callable[[Any, str], Awaitable[Any]]  # (tenant, value) -> response
    variant: str = ""  # which of the body's variants, when it has several

    @property
    def id(self) -> str:
        return f"{self.operation} {self.member}{f' ({self.variant})' if self.variant else ''}"


def _query(path: str, name: str) -> Probe:
    async def send(tenant, value):
        return await tenant.get(path, params={name: value})

    return Probe(f"GET {path}", name, send)


def _body(method: str, path: str, member: str, build) -> Probe:
    async def send(tenant, value):
        target, body = await build(tenant, value)
        return await tenant.client.request(method, target, json=body, headers=tenant.headers)

    return Probe(f"{method} {path}", member, send)


async def _task(tenant, value):
    return "/v1/tasks", {"title": "Call back", "due_at": value}


def _appointment(member: str):
    async def build(tenant, value):
        contact = await calendar_support.contact(tenant)
        # The other end of the slot lies on the far side of the value, so a time refused
        # is refused for its range, not for the order of the two.
        other = "0001-01-01T00:00:00Z" if member == "ends_at" else "9999-12-31T23:59:59Z"
        return "/v1/appointments", {
            "contact_id": contact,
            "title": "Showing",
            member: value,
            ("starts_at" if member == "ends_at" else "ends_at"): other,
        }

    return build


def _appointment_change(member: str):
    async def build(tenant, value):
        made = await calendar_support.create_appointment_for_routes(tenant)
        other = "0001-01-01T00:00:00Z" if member == "ends_at" else "9999-12-31T23:59:59Z"
        return f"/v1/appointments/{made}", {
            member: value,
            ("starts_at" if member == "ends_at" else "ends_at"): other,
        }

    return build


async def _lead(tenant, value):
    return "/v1/leads", {
        "source": "web",
        "first_name": "Ada",
        "phone": "+14155550177",
        "consent": {"captured_at": value},
    }


def _call(member: str) -> Probe:
    async def send(tenant, value):
        settings = tenant.client._transport.app.state.runtime.settings
        settings.calls_provider_secret = settings.calls_provider_secret or ROUTES_PROVIDER_SECRET
        body = {
            "provider_call_id": f"CA-{member}-{value}",
            "workspace_id": tenant.id,
            "direction": "inbound",
            "from": "+14155550142",
            "to": "+14155550100",
            "started_at": "0001-01-01T00:00:00Z",
            "handled_by": "ai",
            member: value,
        }
        raw = json.dumps(body).encode()
        secret = settings.calls_provider_secret.encode()
        signature = hmac.new(secret, raw, hashlib.sha256).hexdigest()
        return await tenant.client.post(
            "/providers/calls/completed",
            content=raw,
            headers={
                "Content-Type": "application/json",
                "X-Homebase-Signature": f"sha256={signature}",
            },
        )

    return Probe("POST /providers/calls/completed", member, send)


def _export(object: str, name: str) -> Probe:
    async def send(tenant, value):
        return await tenant.post("/v1/exports", json={"object": object, "filters": {name: value}})

    return Probe("POST /v1/exports", f"filters.{name}", send, variant=object)


PROBES = [
    *(
        _query(f"/v1/{name}", "updated_after")
        for name in ("contacts", "leads", "deals", "messages", "tasks", "appointments")
    ),
    _query("/v1/tasks", "due_before"),
    _query("/v1/appointments", "starts_after"),
    _query("/v1/appointments", "starts_before"),
    _query("/v1/calls", "started_after"),
    _query("/v1/calls", "started_before"),
    _query("/v1/events", "occurred_after"),
    _query("/v1/ai/stats", "from"),
    _query("/v1/ai/stats", "to"),
    _body("POST", "/v1/tasks", "due_at", _task),
    _body("POST", "/v1/appointments", "starts_at", _appointment("starts_at")),
    _body("POST", "/v1/appointments", "ends_at", _appointment("ends_at")),
    _body("PATCH", "/v1/appointments/{id}", "starts_at", _appointment_change("starts_at")),
    _body("PATCH", "/v1/appointments/{id}", "ends_at", _appointment_change("ends_at")),
    _body("POST", "/v1/leads", "consent.captured_at", _lead),
    _call("started_at"),
    _call("ended_at"),
    *(
        _export(name, "updated_after")
        for name in ("contacts", "leads", "deals", "messages", "tasks", "appointments")
    ),
    _export("tasks", "due_before"),
    _export("appointments", "starts_after"),
    _export("appointments", "starts_before"),
]
# The members whose accepted forms are their own (a Unix time too), with the range alone.
OWN_FORMS = {"POST /v1/leads consent.captured_at"}


@pytest.mark.parametrize("value", OUT_OF_RANGE)
@pytest.mark.parametrize("probe", PROBES, ids=lambda probe: probe.id)
async def test_a_time_outside_the_years_1_to_9999_is_a_400_naming_it(tenant, probe, value):
    response = await probe.send(tenant, value)
    assert response.status_code == 400, response.text
    assert failing_fields(response) == {probe.member}, response.text
    assert "years 1 to 9999" in response.text


@pytest.mark.parametrize("value", EXTREMES)
@pytest.mark.parametrize("probe", PROBES, ids=lambda probe: probe.id)
async def test_the_first_and_last_instants_are_taken(tenant, probe, value):
    response = await probe.send(tenant, value)
    assert response.status_code < 500, response.text
    # Another rule may refuse the request (an appointment's ends_at after its starts_at,
    # a call at most a day long), never the range.
    assert "years 1 to 9999" not in response.text


@pytest.mark.parametrize(
    "probe",
    [p for p in PROBES if p.id not in OWN_FORMS and "/v1/" in p.operation],
    ids=lambda probe: probe.id,
)
async def test_a_number_or_a_time_without_its_offset_is_no_time(tenant, probe):
    for value in ("1700000000", "2026-11-20T17:00:00", "2026-11-20"):
        response = await probe.send(tenant, value)
        assert response.status_code == 400, (value, response.text)
        assert failing_fields(response) == {probe.member}, (value, response.text)


def _time_members(document: dict[str, Any]):
    """(operation, member, schema) of every date-time a request carries."""
    schemas = document["components"]["schemas"]

    def walk(node, path, seen):
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if ref is not None:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                yield from walk(schemas[name], path, seen | {name})
            return
        if node.get("format") == "date-time":
            yield ".".join(path), node
        for key in ("anyOf", "oneOf", "allOf"):
            for option in node.get(key, []):
                yield from walk(option, path, seen)
        for name, member in node.get("properties", {}).items():
            yield from walk(member, [*path, name], seen)
        if isinstance(node.get("items"), dict):
            yield from walk(node["items"], [*path, "*"], seen)

    for path, item in document["paths"].items():
        for method, operation in item.items():
            name = f"{method.upper()} {path}"
            for parameter in operation.get("parameters", []):
                for member, schema in walk(parameter["schema"], [parameter["name"]], frozenset()):
                    yield name, member, schema
            for content in operation.get("requestBody", {}).get("content", {}).values():
                for member, schema in walk(content.get("schema", {}), [], frozenset()):
                    yield name, member, schema


def test_the_table_holds_every_time_parameter_of_the_document(app):
    found = {(operation, member) for operation, member, _ in _time_members(app.openapi())}
    assert found == {(probe.operation, probe.member) for probe in PROBES}


def test_the_document_states_the_range_on_every_time_parameter(app):
    for operation, member, schema in _time_members(app.openapi()):
        expected = IN_RANGE_PATTERN if f"{operation} {member}" in OWN_FORMS else MOMENT_PATTERN
        assert schema.get("pattern") == expected, (operation, member, schema)
        if expected == MOMENT_PATTERN:
            assert schema.get("maxLength") == 64, (operation, member, schema)
