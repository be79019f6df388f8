"""After DELETE /contacts/{id}, new work may not name the erased contact (a deal, an
appointment, a task, an enrolment would attach new personal text to that person), while
what already exists survives and stays usable (workspaces/references.py). HTTP level, on
SQLite and PostgreSQL."""

from tests.calendar_support import book, slot
from tests.support import assert_error

ERASED = "the contact's data was erased"


async def erased_contact(tenant) -> str:
    created = await tenant.post("/v1/contacts", json={"first_name": "Dana", "last_name": "Reyes"})
    assert created.status_code == 201, created.text
    contact_id = created.json()["id"]
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    return contact_id


async def buyer_pipeline(tenant) -> str:
    pipelines = (await tenant.get("/v1/pipelines")).json()["data"]
    return next(pipeline["id"] for pipeline in pipelines if pipeline["key"] == "buyer")


def assert_refused(response, field: str = "contact_id") -> None:
    body = assert_error(response, 400, "validation_failed")
    assert {"field": field, "in": "body", "message": ERASED, "type": "value_error"} in (
        body["details"]["errors"]
    )


async def test_new_work_naming_an_erased_contact_is_refused_and_nothing_is_created(tenant):
    contact_id = await erased_contact(tenant)
    assert_refused(
        await tenant.post(
            "/v1/deals",
            json={
                "title": "Reyes purchase",
                "pipeline_id": await buyer_pipeline(tenant),
                "contact_id": contact_id,
            },
        )
    )
    assert_refused(
        await tenant.post(
            "/v1/appointments", json={"contact_id": contact_id, "title": "Showing", **slot(17)}
        )
    )
    assert_refused(
        await tenant.post("/v1/tasks", json={"title": "Call Dana back", "contact_id": contact_id})
    )
    for listing in ("/v1/deals", "/v1/appointments", "/v1/tasks"):
        response = await tenant.get(listing, params={"contact_id": contact_id})
        assert response.status_code == 200, response.text
        assert response.json()["data"] == []


async def test_what_existed_before_the_erasure_stays_usable(tenant):
    created = await tenant.post("/v1/contacts", json={"first_name": "Dana"})
    contact_id = created.json()["id"]
    deal = (
        await tenant.post(
            "/v1/deals",
            json={
                "title": "Reyes purchase",
                "pipeline_id": await buyer_pipeline(tenant),
                "contact_id": contact_id,
            },
        )
    ).json()
    appointment = await book(tenant, contact_id)
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    pipeline = next(
        p
        for p in (await tenant.get("/v1/pipelines")).json()["data"]
        if p["id"] == deal["pipeline_id"]
    )
    moved = await tenant.patch(
        f"/v1/deals/{deal['id']}", json={"stage_id": pipeline["stages"][-1]["id"]}
    )
    assert moved.status_code == 200, moved.text
    outcome = await tenant.patch(
        f"/v1/appointments/{appointment['id']}", json={"outcome": "cancelled"}
    )
    assert outcome.status_code == 200, outcome.text


async def test_another_workspaces_contact_still_reads_as_unknown(tenant, other_tenant):
    foreign = await erased_contact(other_tenant)
    response = await tenant.post("/v1/tasks", json={"title": "x", "contact_id": foreign})
    body = assert_error(response, 400, "validation_failed")
    assert body["details"]["errors"][0]["message"] == ("is not a contact of this workspace")
