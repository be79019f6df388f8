"""Appointments, tasks, automations, personas and campaigns answer in the shapes the
OpenAPI document gives (tests/kit/test_crm_openapi.py does the same for deals, listings and
calls), successes and refusals alike."""

from tests import automations_support as support
from tests.calendar_support import add_member, book, contact, slot
from tests.kit.test_openapi import assert_conforms
from tests.support import Tenant, make_key


async def reader_of(runtime, tenant, scopes: list[str]) -> Tenant:
    """Another key of the same workspace holding only `scopes`."""
    key_id, key = await make_key(runtime, tenant.id, scopes)
    return Tenant(tenant.id, key, key_id, tenant.client, {"Authorization": f"token {key}"})


async def test_responses_conform(app, tenant, runtime):
    document = app.openapi()
    member = await add_member(runtime, tenant)
    contact_id = await contact(tenant)
    created = await tenant.post(
        "/v1/appointments",
        json={
            "contact_id": contact_id,
            "title": "Showing",
            **slot(17),
            "location": "Office",
            "notes": "n",
            "created_by": member,
        },
    )
    assert created.status_code == 201, created.text
    assert_conforms(document, "POST", "/v1/appointments", created)
    appointment = created.json()["id"]
    moved = await tenant.patch(
        f"/v1/appointments/{appointment}", json={**slot(18, day=22), "outcome": "no_show"}
    )
    assert moved.status_code == 200, moved.text
    assert_conforms(document, "PATCH", "/v1/appointments/{id}", moved)
    await book(tenant, contact_id)  # an appointment with nulls: no creator, no outcome

    task = {
        "title": "Call Dana",
        "contact_id": contact_id,
        "assignee_id": member,
        "due_at": "2026-11-21T17:00:00Z",
        "notes": "About the offer",
    }
    first = await tenant.post("/v1/tasks", json=task)
    again = await tenant.post("/v1/tasks", json=task)
    assert (first.status_code, again.status_code) == (201, 200)
    assert_conforms(document, "POST", "/v1/tasks", first)
    assert_conforms(document, "POST", "/v1/tasks", again)
    await tenant.post("/v1/tasks", json={"title": "Bare"})

    created = await support.load(
        runtime,
        tenant.id,
        {
            "personas": [support.PERSONA],
            "automations": [
                {"ref": "flow", "name": "Flow", "steps": support.FULL_STEPS},
                {"name": "Off", "enabled": False, "steps": support.FULL_STEPS},
            ],
            "campaigns": [
                {
                    "name": "Spring",
                    "persona": "ava",
                    "automation": "flow",
                    "audience": "Buyers in Noe Valley",
                }
            ],
        },
    )
    automation, disabled = created["automations"]
    enrolled = await tenant.post(
        f"/v1/automations/{automation}/enroll", json={"contact_id": contact_id}
    )
    assert enrolled.status_code == 202, enrolled.text
    assert_conforms(document, "POST", "/v1/automations/{id}/enroll", enrolled)
    refused = await tenant.post(
        f"/v1/automations/{disabled}/enroll", json={"contact_id": contact_id}
    )
    assert refused.status_code == 409
    assert_conforms(document, "POST", "/v1/automations/{id}/enroll", refused)
    await support.tick(runtime)  # the enrolment now has a step run and a wait

    ids = {
        "/v1/appointments/{id}": appointment,
        "/v1/tasks/{id}": first.json()["id"],
        "/v1/automations/{id}": automation,
        "/v1/automations/{id}/enrolments": automation,
        "/v1/personas/{id}": created["personas"][0],
        "/v1/campaigns/{id}": created["campaigns"][0],
    }
    reader = await reader_of(runtime, tenant, ["appointments:read", "automations:read"])
    for path in (
        "/v1/appointments",
        "/v1/tasks",
        "/v1/automations",
        "/v1/personas",
        "/v1/campaigns",
        *ids,
    ):
        url = path.format(id=ids.get(path))
        response = await reader.get(url)
        assert response.status_code == 200, f"{url}: {response.text}"
        assert response.json().get("data", True), f"{url} listed nothing"
        assert_conforms(document, "GET", path, response)
        if "{id}" in path and not path.endswith("enrolments"):
            assert_conforms(document, "GET", path, await reader.get(path.format(id="xyz_unknown")))

    for method, path, url, body in [
        ("POST", "/v1/appointments", "/v1/appointments", {"title": ""}),
        (
            "PATCH",
            "/v1/appointments/{id}",
            f"/v1/appointments/{appointment}",
            {"starts_at": "2026-11-22T18:00:00Z"},
        ),
        ("POST", "/v1/tasks", "/v1/tasks", {"title": "T", "contact_id": "con_nope"}),
        (
            "POST",
            "/v1/automations/{id}/enroll",
            f"/v1/automations/{automation}/enroll",
            {"contact_id": "con_nope"},
        ),
    ]:
        response = await tenant.client.request(method, url, json=body, headers=tenant.headers)
        assert response.status_code == 400, response.text
        assert_conforms(document, method, path, response)
        forbidden = await reader.client.request(method, url, json=body, headers=reader.headers)
        assert forbidden.status_code == 403, forbidden.text
        assert_conforms(document, method, path, forbidden)
