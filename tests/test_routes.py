"""Every /v1 route declares its access in one place and is tenant-scoped, so a new endpoint
cannot forget either: the route class, exactly one scope dependency matching the spec's
endpoint table, the TenantSession, and 404 for another workspace's id."""

import functools
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import RouteContext, iter_route_contexts
from sqlalchemy import select, update

from homebase.auth.dependencies import RequireAnyScope, RequireScope, tenant_session
from homebase.auth.scopes import Scope
from homebase.config import Settings
from homebase.db.engine import Database
from homebase.db.tenancy import TenantSession, UnscopedQuery
from homebase.http.v1_route import V1Route
from homebase.models import Contact
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests import (
    automations_support,
    calendar_support,
    crm_support,
    events_support,
    exports_support,
    imports_support,
    leads_support,
    webhooks_support,
)

# The spec's "Endpoints" table: method, path under /v1, scope (None: any valid credential).
SPEC_ENDPOINTS: dict[tuple[str, str], str | None] = {
    ("GET", "/ping"): None,
    ("GET", "/contacts"): "contacts:read",
    ("POST", "/contacts"): "contacts:write",
    ("GET", "/contacts/{id}"): "contacts:read",
    ("PATCH", "/contacts/{id}"): "contacts:write",
    ("DELETE", "/contacts/{id}"): "contacts:write",
    ("GET", "/contacts/{id}/events"): "events:read",
    ("GET", "/contacts/{id}/notes"): "events:read",
    ("POST", "/contacts/{id}/notes"): "contacts:write",
    ("GET", "/leads"): "leads:read",
    ("POST", "/leads"): "leads:write",
    ("GET", "/leads/{id}"): "leads:read",
    ("POST", "/leads/{id}/assign"): "leads:write",
    ("POST", "/leads/routing-preview"): "leads:read",
    ("GET", "/messages"): "messages:read",
    ("POST", "/messages"): "messages:send",
    ("GET", "/calls"): "calls:read",
    ("GET", "/calls/{id}"): "calls:read",
    ("GET", "/deals"): "deals:read",
    ("POST", "/deals"): "deals:write",
    ("GET", "/deals/{id}"): "deals:read",
    ("PATCH", "/deals/{id}"): "deals:write",
    ("GET", "/pipelines"): "deals:read",
    ("GET", "/listings"): "listings:read",
    ("GET", "/appointments"): "appointments:read",
    ("POST", "/appointments"): "appointments:write",
    ("GET", "/appointments/{id}"): "appointments:read",
    ("PATCH", "/appointments/{id}"): "appointments:write",
    ("GET", "/tasks"): "appointments:read",
    ("POST", "/tasks"): "appointments:write",
    ("GET", "/automations"): "automations:read",
    ("POST", "/automations/{id}/enroll"): "automations:manage",
    ("GET", "/personas"): "automations:read",
    ("GET", "/campaigns"): "automations:read",
    ("GET", "/webhooks"): "webhooks:manage",
    ("POST", "/webhooks"): "webhooks:manage",
    ("DELETE", "/webhooks/{id}"): "webhooks:manage",
}

# Routes the spec's table does not name, each with its scope: adding one is a decision.
# A tuple: any one of these scopes admits the credential, and the endpoint checks the one
# the request needs (RequireAnyScope: an import's scope follows its `object`).
EXTRA_ROUTES: dict[tuple[str, str], str | tuple[str, ...] | None] = {
    ("POST", "/contacts/{id}/ai/pause"): "contacts:write",
    ("POST", "/contacts/{id}/ai/resume"): "contacts:write",
    ("GET", "/messages/{id}"): "messages:read",
    # The people contacts' owner_id and leads' assignee_id name: read with contacts.
    ("GET", "/members"): "contacts:read",
    ("GET", "/webhooks/{id}"): "webhooks:manage",
    ("PATCH", "/webhooks/{id}"): "webhooks:manage",
    ("GET", "/webhooks/{id}/deliveries"): "webhooks:manage",
    ("POST", "/webhooks/{id}/deliveries/{delivery_id}/redeliver"): "webhooks:manage",
    ("GET", "/tasks/{id}"): "appointments:read",
    ("GET", "/automations/{id}"): "automations:read",
    ("GET", "/automations/{id}/enrolments"): "automations:read",
    ("GET", "/personas/{id}"): "automations:read",
    ("GET", "/campaigns/{id}"): "automations:read",
    # A campaign's enrolments: enrolled as an automation's are, read with the campaign.
    ("POST", "/campaigns/{id}/enroll"): "automations:manage",
    ("GET", "/campaigns/{id}/contacts"): "automations:read",
    # The AI responder's numbers (docs/ai.md, "Its numbers"): read with its personas.
    ("GET", "/ai/stats"): "automations:read",
    # Any credential: each event type is read with its own scope (outbox/catalogue.py).
    ("GET", "/events"): None,
    ("GET", "/events/{id}"): None,
    # Custom fields: either object's scope admits; the field's object picks the one needed.
    ("GET", "/custom-fields"): "contacts:read|deals:read",
    ("POST", "/custom-fields"): "contacts:write|deals:write",
    ("GET", "/custom-fields/{id}"): "contacts:read|deals:read",
    ("PATCH", "/custom-fields/{id}"): "contacts:write|deals:write",
    ("DELETE", "/custom-fields/{id}"): "contacts:write|deals:write",
    # Any credential: an export needs its list's read scope, which the service checks
    # against the object it addresses (exports/service.py).
    ("POST", "/exports"): None,
    ("GET", "/exports"): None,
    ("GET", "/exports/{id}"): None,
    # Imports: either object's scope admits; the import's object picks the one needed.
    ("POST", "/imports"): "contacts:write|leads:write",
    ("GET", "/imports"): "contacts:read|leads:read",
    ("GET", "/imports/{id}"): "contacts:read|leads:read",
    ("GET", "/imports/{id}/errors"): "contacts:read|leads:read",
}

# Served by FastAPI itself, outside the route class: the document and its viewer.
UNAUTHENTICATED = ("/v1/openapi.json", "/v1/docs")
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@functools.cache
def build_offline_app() -> FastAPI:
    """The app as served, for looking at its routes; its database is never opened."""
    url = f"sqlite+aiosqlite:///{tempfile.gettempdir()}/homebase-unused.sqlite3"
    settings = Settings(env="test", database_url=url, secret_key="test-secret-key")
    return create_app(Runtime(settings=settings, db=Database(url), limiter=MemoryLimiter()))


@pytest.fixture
def offline_app() -> FastAPI:
    return build_offline_app()


def v1_routes(app: FastAPI) -> list[RouteContext]:
    """Every route under /v1 as served (FastAPI includes routers lazily: app.routes holds
    the included routers, iter_route_contexts the effective routes with full paths)."""
    return [
        route
        for route in iter_route_contexts(app.routes)
        if (route.path or "").startswith("/v1/") and not route.path.startswith(UNAUTHENTICATED)
    ]


def api_routes(app: FastAPI) -> Iterator[tuple[str, str, RouteContext]]:
    """(method, path under /v1, route) for every /v1 operation."""
    for route in v1_routes(app):
        for method in sorted(route.methods or ()):
            yield method, route.path.removeprefix("/v1"), route


def dependency_calls(dependant: Dependant) -> Iterator[Any]:
    for dependency in dependant.dependencies:
        yield dependency.call
        yield from dependency_calls(dependency)


def declared_scopes(route: RouteContext) -> list[Scope | None | tuple[Scope, ...]]:
    """Each scope dependency's scope; a RequireAnyScope's scopes as a tuple (any of them
    admits, and the endpoint requires the one its object needs: custom fields)."""
    return [
        call.scopes if isinstance(call, RequireAnyScope) else call.scope
        for call in dependency_calls(route.dependant)
        if isinstance(call, RequireScope)
    ]


def _real(scope: Any) -> bool:
    if isinstance(scope, tuple):
        return len(scope) > 1 and all(isinstance(item, Scope) for item in scope)
    return isinstance(scope, Scope)


def _named(scope: Any) -> str | None:
    if isinstance(scope, tuple):
        return "|".join(item.value for item in scope)
    return scope.value if scope else None


def test_every_v1_route_uses_the_v1_route_class(offline_app):
    offenders = [
        route.path
        for route in v1_routes(offline_app)
        if not isinstance(route.original_route, V1Route)
    ]
    assert not offenders, f"not served by V1Route (no auth, rate limit, transaction): {offenders}"
    assert len(v1_routes(offline_app)) >= 9


def test_every_route_declares_exactly_one_scope(offline_app):
    problems = []
    for method, path, route in api_routes(offline_app):
        scopes = declared_scopes(route)
        if len(scopes) != 1:
            problems.append(f"{method} {path}: {len(scopes)} RequireScope dependencies")
        elif scopes == [None]:
            # Any credential: only where SPEC_ENDPOINTS or EXTRA_ROUTES say so.
            if {**SPEC_ENDPOINTS, **EXTRA_ROUTES}.get((method, path), "") is not None:
                problems.append(f"{method} {path}: any credential, but not listed as such")
        elif not _real(scopes[0]):
            problems.append(f"{method} {path}: no real scope ({scopes[0]!r})")
    assert not problems, "\n".join(problems)


def test_every_route_but_ping_reaches_data_through_the_tenant_session(offline_app):
    missing = [
        f"{method} {path}"
        for method, path, route in api_routes(offline_app)
        if path != "/ping" and tenant_session not in dependency_calls(route.dependant)
    ]
    assert not missing, f"routes without `session: Tenant`: {missing}"


def test_scopes_match_the_spec_table(offline_app):
    problems = []
    for method, path, route in api_routes(offline_app):
        key = (method, path)
        if key in SPEC_ENDPOINTS:
            expected = SPEC_ENDPOINTS[key]
        elif key in EXTRA_ROUTES:
            expected = EXTRA_ROUTES[key]
        else:
            problems.append(
                f"{method} {path} is neither in the spec's table nor in "
                "EXTRA_ROUTES (add it there, with its scope)"
            )
            continue
        scopes = [_named(scope) for scope in declared_scopes(route)]
        if scopes != [expected]:
            problems.append(f"{method} {path}: declares {scopes}, the spec says {expected}")
    assert not problems, "\n".join(problems)


def test_the_spec_table_only_names_real_scopes():
    names = {scope.value for scope in Scope}
    assert {scope for scope in SPEC_ENDPOINTS.values() if scope} <= names
    assert {part for scope in EXTRA_ROUTES.values() if scope for part in scope.split("|")} <= names


# Another workspace's id


@dataclass(frozen=True)
class CrossTenantFactory:
    """How to make an object in a workspace through the API, and see it from there."""

    create: Callable[[Any], Awaitable[str | dict[str, str]]]  # the id, or all path params
    snapshot: Callable[[Any, str], Awaitable[Any]]
    unknown_id: str


async def _create_contact(tenant) -> str:
    response = await tenant.post(
        "/v1/contacts",
        json={
            "first_name": "Owned",
            "last_name": "Elsewhere",
            "phone": "+1 415 555 0100",
            "email": "owned@example.com",
            "tags": ["mine"],
            "notes": "private",
        },
    )
    assert response.status_code == 201, response.text
    contact_id = response.json()["id"]
    note = await tenant.post(f"/v1/contacts/{contact_id}/notes", json={"body": "first"})
    assert note.status_code == 201, note.text
    return contact_id


async def _contact_snapshot(tenant, contact_id: str) -> Any:
    paths = ["", "/events?limit=200", "/notes?limit=200"]
    responses = [await tenant.get(f"/v1/contacts/{contact_id}{path}") for path in paths]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]


async def _create_message(tenant) -> str:
    response = await tenant.post(
        "/v1/messages",
        json={
            "channel": "email",
            "to": "owned@example.com",
            "subject": "Private",
            "body": "private",
        },
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def _message_snapshot(tenant, message_id: str) -> Any:
    responses = [
        await tenant.get(f"/v1/messages/{message_id}"),
        await tenant.get("/v1/messages?limit=200"),
    ]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]


async def _create_custom_field(tenant) -> str:
    key = f"owned_{len(_CUSTOM_KEYS)}"
    _CUSTOM_KEYS.append(key)
    body = {"object": "contacts", "key": key, "label": "Owned", "type": "text"}
    response = await tenant.post("/v1/custom-fields", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


_CUSTOM_KEYS: list[str] = []


async def _custom_field_snapshot(tenant, field_id: str) -> Any:
    response = await tenant.get(f"/v1/custom-fields/{field_id}")
    assert response.status_code == 200, response.text
    return response.json()


# Path prefix (the part before /{id}) -> factory. Each area adds its own entry.
CROSS_TENANT_FACTORIES: dict[str, CrossTenantFactory] = {
    "/v1/appointments": CrossTenantFactory(
        calendar_support.create_appointment_for_routes,
        calendar_support.appointment_snapshot,
        "apt_00000000000000000000000000",
    ),
    "/v1/contacts": CrossTenantFactory(
        _create_contact, _contact_snapshot, "con_00000000000000000000000000"
    ),
    "/v1/messages": CrossTenantFactory(
        _create_message, _message_snapshot, "msg_00000000000000000000000000"
    ),
    "/v1/deals": CrossTenantFactory(
        crm_support.create_deal, crm_support.deal_snapshot, "dea_00000000000000000000000000"
    ),
    "/v1/calls": CrossTenantFactory(
        crm_support.create_call, crm_support.call_snapshot, "cal_00000000000000000000000000"
    ),
    "/v1/leads": CrossTenantFactory(
        leads_support.create_lead_for_routes,
        leads_support.lead_snapshot,
        "lea_00000000000000000000000000",
    ),
    "/v1/webhooks": CrossTenantFactory(
        webhooks_support.create_subscription_for_routes,
        webhooks_support.subscription_snapshot,
        "whk_00000000000000000000000000",
    ),
    "/v1/tasks": CrossTenantFactory(
        automations_support.create_task_for_routes,
        automations_support.task_snapshot,
        "tsk_00000000000000000000000000",
    ),
    "/v1/automations": CrossTenantFactory(
        automations_support.create_automation_for_routes,
        automations_support.automation_snapshot,
        "aut_00000000000000000000000000",
    ),
    "/v1/personas": CrossTenantFactory(
        automations_support.create_persona_for_routes,
        automations_support.persona_snapshot,
        "prs_00000000000000000000000000",
    ),
    "/v1/events": CrossTenantFactory(
        events_support.create_event_for_routes,
        events_support.event_snapshot,
        "evt_00000000000000000000000000",
    ),
    "/v1/exports": CrossTenantFactory(
        exports_support.create_export_for_routes,
        exports_support.export_snapshot,
        "exp_00000000000000000000000000",
    ),
    "/v1/campaigns": CrossTenantFactory(
        automations_support.create_campaign_for_routes,
        automations_support.campaign_snapshot,
        "cmp_00000000000000000000000000",
    ),
    "/v1/custom-fields": CrossTenantFactory(
        _create_custom_field, _custom_field_snapshot, "cfd_00000000000000000000000000"
    ),
    "/v1/imports": CrossTenantFactory(
        imports_support.create_import_for_routes,
        imports_support.import_snapshot,
        "imp_00000000000000000000000000",
    ),
}

# Request bodies for write routes whose body schema's first example does not fit.
REQUEST_BODIES: dict[tuple[str, str], Any] = {}


def _example_body(document: dict, method: str, path: str) -> Any:
    if (method, path) in REQUEST_BODIES:
        return REQUEST_BODIES[(method, path)]
    body = document["paths"][path][method.lower()].get("requestBody")
    if body is None:
        return None
    schema = body["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return (schema.get("examples") or [{}])[0]


def _without_request_id(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    return {key: value for key, value in body["error"].items() if key != "request_id"}


async def _request(tenant, method: str, url: str, body: Any):
    kwargs = {"json": body} if body is not None else {}
    return await tenant.client.request(method, url, headers=tenant.headers, **kwargs)


def id_prefixes() -> list[str]:
    """The part before /{id} of every /v1 path with an id, e.g. /v1/contacts."""
    return sorted(
        {
            route.path.split("/{id}")[0]
            for route in v1_routes(build_offline_app())
            if "{id}" in route.path
        }
    )


@pytest.mark.parametrize("prefix", id_prefixes())
async def test_another_workspaces_id_is_404_like_an_unknown_one(app, tenant, other_tenant, prefix):
    if prefix not in CROSS_TENANT_FACTORIES:
        pytest.fail(
            f"no CROSS_TENANT_FACTORIES entry for {prefix} in tests/test_routes.py: "
            "add one that creates an object through the API and returns its id"
        )
    document = app.openapi()
    routes = [
        (method, route.path)
        for method, _, route in api_routes(app)
        if route.path.startswith(f"{prefix}/{{id}}")
    ]
    assert routes
    factory = CROSS_TENANT_FACTORIES[prefix]
    for method, path in routes:
        created = await factory.create(tenant)
        params = created if isinstance(created, dict) else {"id": created}
        owned_id = params["id"]
        before = await factory.snapshot(tenant, owned_id)
        body = _example_body(document, method, path)
        try:
            owned_url = path.format(**params)
        except KeyError as missing_param:
            raise AssertionError(
                f"the factory for {path} must return {missing_param} too"
            ) from None
        unknown_url = path.format(**{**params, "id": factory.unknown_id})

        foreign = await _request(other_tenant, method, owned_url, body)
        unknown = await _request(other_tenant, method, unknown_url, body)
        label = f"{method} {path} with another workspace's id"
        assert unknown.status_code == 404, f"{method} {path} unknown id: {unknown.text}"
        assert foreign.status_code == 404, f"{label}: {foreign.status_code} {foreign.text}"
        assert _without_request_id(foreign) == _without_request_id(unknown), label
        assert foreign.json()["error"]["code"] == "not_found"

        assert await factory.snapshot(tenant, owned_id) == before, f"{label} changed it"
        if method not in WRITE_METHODS:
            # The owner still reaches it, so the 404 above came from tenancy alone.
            own = await _request(tenant, method, owned_url, body)
            assert own.status_code == 200, f"{method} {path} for its owner: {own.text}"


# TenantSession refuses statements it did not build


async def test_tenant_session_refuses_an_unscoped_statement(runtime, tenant, other_tenant):
    contacts = Contact.__table__
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        other = TenantSession(connection, other_tenant.id)
        with pytest.raises(UnscopedQuery):
            await session.fetch_all(select(contacts))
        with pytest.raises(UnscopedQuery):
            await session.fetch_one(select(contacts).where(contacts.c.id == "con_x"))
        with pytest.raises(UnscopedQuery):
            await session.execute(update(contacts).values(first_name="x"))
        # Built by another workspace's session is not scoped to this one.
        with pytest.raises(UnscopedQuery):
            await session.fetch_all(other.select(contacts))
        with pytest.raises(UnscopedQuery):
            await session.execute(other.update(contacts).values(first_name="x"))
        assert await session.fetch_all(session.select(contacts)) == []
        assert await session.execute(session.update(contacts).values(first_name="x")) == 0
