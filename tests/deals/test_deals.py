"""Deals and pipelines at the HTTP level, on SQLite and PostgreSQL."""

import pytest
from sqlalchemy import select

from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.models import OutboxEvent, Pipeline
from tests.support import add_members, assert_error, failing_fields

# Members of the `tenant` workspace, so bodies may name them as owner_id.
OWNERS = ("usr_maya", "usr_a", "usr_x")


@pytest.fixture
async def tenant(tenant, runtime):
    await add_members(runtime, tenant.id, *OWNERS)
    return tenant


async def pipelines_of(tenant) -> dict[str, dict]:
    response = await tenant.get("/v1/pipelines")
    assert response.status_code == 200, response.text
    return {pipeline["key"]: pipeline for pipeline in response.json()["data"]}


async def contact(tenant, **fields) -> str:
    response = await tenant.post("/v1/contacts", json={"first_name": "Dana", **fields})
    assert response.status_code == 201
    return response.json()["id"]


async def deal(tenant, **fields) -> dict:
    if "pipeline_id" not in fields:
        fields["pipeline_id"] = (await pipelines_of(tenant))["buyer"]["id"]
    response = await tenant.post("/v1/deals", json={"title": "Reyes purchase", **fields})
    assert response.status_code == 201, response.text
    return response.json()


async def load(runtime, tenant, document) -> dict:
    async with runtime.db.transaction() as connection:
        return await load_fixtures(
            TenantSession(connection, tenant.id, clock=runtime.clock), document
        )


async def test_default_buyer_and_seller_pipelines_with_ordered_stages(tenant):
    pipelines = await pipelines_of(tenant)
    assert set(pipelines) == {"buyer", "seller"}
    stages = pipelines["buyer"]["stages"]
    assert [stage["position"] for stage in stages] == list(range(len(stages)))
    assert stages[0]["key"] == "new" and stages[-1]["key"] == "closed"
    assert all(stage["id"].startswith("stg_") for stage in stages)
    # Created once: a second read finds the same pipelines.
    assert await pipelines_of(tenant) == pipelines


async def test_defaults_are_created_once_per_workspace(tenant, runtime):
    await pipelines_of(tenant)
    await deal(tenant)
    async with runtime.db.transaction(write=False) as connection:
        table = Pipeline.__table__
        rows = (
            await connection.execute(select(table.c.key).where(table.c.workspace_id == tenant.id))
        ).all()
    assert sorted(row[0] for row in rows) == ["buyer", "seller"]


async def test_pipelines_from_fixtures_and_fields(tenant, runtime):
    created = await load(
        runtime,
        tenant,
        {
            "pipelines": [
                {
                    "ref": "rentals",
                    "key": "rentals",
                    "name": "Rentals",
                    "stages": [
                        {"key": "inquiry", "name": "Inquiry"},
                        {"key": "application", "name": "Application", "probability": 60},
                        {"key": "leased", "name": "Leased", "probability": 100},
                    ],
                }
            ]
        },
    )
    pipelines = await pipelines_of(tenant)
    assert set(pipelines) == {"buyer", "seller", "rentals"}
    assert pipelines["rentals"]["id"] == created["pipelines"][0]
    assert [stage["key"] for stage in pipelines["rentals"]["stages"]] == [
        "inquiry",
        "application",
        "leased",
    ]
    body = (await tenant.get("/v1/pipelines", params={"fields": "name"})).json()
    assert all(set(item) == {"id", "name"} for item in body["data"])
    assert_error(
        await tenant.get("/v1/pipelines", params={"fields": "nope"}), 400, "validation_failed"
    )


async def test_create_and_retrieve_a_deal(tenant):
    contact_id = await contact(tenant)
    buyer = (await pipelines_of(tenant))["buyer"]
    created = await deal(
        tenant,
        pipeline_id=buyer["id"],
        stage_id=buyer["stages"][1]["id"],
        contact_id=contact_id,
        value="1450000.00",
        currency="USD",
        expected_close_date="2027-02-15",
        owner_id="usr_maya",
        commission_rate="2.5",
    )
    assert created["id"].startswith("dea_")
    assert created["stage_id"] == buyer["stages"][1]["id"]
    assert created["value"] == "1450000.00" and created["commission_rate"] == "2.50"
    assert created["commission_amount"] == "36250.00"
    assert created["status"] == "open" and created["closed_at"] is None
    assert created["expected_close_date"] == "2027-02-15"
    fetched = await tenant.get(f"/v1/deals/{created['id']}")
    assert fetched.status_code == 200 and fetched.json() == created
    events = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    assert events[0]["type"] == "deal_created"


async def test_stage_defaults_to_the_first_and_money_accepts_numbers(tenant):
    buyer = (await pipelines_of(tenant))["buyer"]
    created = await deal(tenant, value=1200.5, commission_amount="30")
    assert created["stage_id"] == buyer["stages"][0]["id"]
    assert created["value"] == "1200.50" and created["commission_amount"] == "30.00"
    assert created["contact_id"] is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"title": ""}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"value": "-1"}, "value"),
        ({"value": "1.234"}, "value"),
        ({"value": "lots"}, "value"),
        ({"currency": "usd"}, "currency"),
        ({"commission_rate": "101"}, "commission_rate"),
        ({"status": "pending"}, "status"),
        ({"expected_close_date": "next week"}, "expected_close_date"),
        ({"surprise": 1}, "surprise"),
    ],
)
async def test_create_validation(tenant, body, field):
    pipeline_id = (await pipelines_of(tenant))["buyer"]["id"]
    response = await tenant.post(
        "/v1/deals", json={"title": "T", "pipeline_id": pipeline_id, **body}
    )
    assert failing_fields(response) == {field}


async def test_title_and_pipeline_are_required(tenant):
    assert failing_fields(await tenant.post("/v1/deals", json={})) == {"title", "pipeline_id"}


async def test_stage_must_belong_to_the_pipeline(tenant):
    pipelines = await pipelines_of(tenant)
    response = await tenant.post(
        "/v1/deals",
        json={
            "title": "T",
            "pipeline_id": pipelines["buyer"]["id"],
            "stage_id": pipelines["seller"]["stages"][0]["id"],
        },
    )
    assert failing_fields(response) == {"stage_id"}


async def test_foreign_pipeline_stage_and_contact_are_400_without_revealing(tenant, other_tenant):
    theirs = await pipelines_of(other_tenant)
    their_contact = await contact(other_tenant)
    mine = await pipelines_of(tenant)
    response = await tenant.post(
        "/v1/deals", json={"title": "T", "pipeline_id": theirs["buyer"]["id"]}
    )
    assert failing_fields(response) == {"pipeline_id"}
    response = await tenant.post(
        "/v1/deals",
        json={
            "title": "T",
            "pipeline_id": mine["buyer"]["id"],
            "stage_id": theirs["buyer"]["stages"][0]["id"],
        },
    )
    assert failing_fields(response) == {"stage_id"}
    foreign = await tenant.post(
        "/v1/deals",
        json={"title": "T", "pipeline_id": mine["buyer"]["id"], "contact_id": their_contact},
    )
    unknown = await tenant.post(
        "/v1/deals",
        json={"title": "T", "pipeline_id": mine["buyer"]["id"], "contact_id": "con_nope"},
    )
    assert failing_fields(foreign) == failing_fields(unknown) == {"contact_id"}
    assert foreign.json()["error"]["message"] == unknown.json()["error"]["message"]


async def test_foreign_and_unknown_deals_are_the_same_404(tenant, other_tenant):
    theirs = await deal(other_tenant)
    for deal_id in (theirs["id"], "dea_unknown"):
        assert_error(await tenant.get(f"/v1/deals/{deal_id}"), 404, "not_found")
        assert_error(
            await tenant.patch(f"/v1/deals/{deal_id}", json={"title": "x"}), 404, "not_found"
        )
    assert (await tenant.get("/v1/deals")).json()["data"] == []


async def test_moving_a_stage_emits_an_event_and_a_timeline_entry(tenant, runtime):
    contact_id = await contact(tenant)
    buyer = (await pipelines_of(tenant))["buyer"]
    created = await deal(tenant, contact_id=contact_id, value="900000")
    target = buyer["stages"][2]
    response = await tenant.patch(f"/v1/deals/{created['id']}", json={"stage_id": target["id"]})
    assert response.status_code == 200, response.text
    moved = response.json()
    assert moved["stage_id"] == target["id"]
    assert moved["stage_changed_at"] >= created["stage_changed_at"]
    async with runtime.db.transaction(write=False) as connection:
        table = OutboxEvent.__table__
        rows = (
            await connection.execute(
                select(table.c.type, table.c.data).where(
                    table.c.workspace_id == tenant.id, table.c.type == "deal.stage_changed"
                )
            )
        ).all()
    assert len(rows) == 1
    data = rows[0].data
    assert data["id"] == created["id"] and data["stage_id"] == target["id"]
    assert data["previous_stage_id"] == buyer["stages"][0]["id"]
    assert data["stage"] == target["name"] and data["contact_id"] == contact_id
    events = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    assert events[0]["type"] == "deal_stage_changed"
    assert target["name"] in events[0]["title"]
    # Patching the same stage again changes nothing and emits nothing more.
    await tenant.patch(f"/v1/deals/{created['id']}", json={"stage_id": target["id"]})
    async with runtime.db.transaction(write=False) as connection:
        count = len(
            (
                await connection.execute(
                    select(table.c.id).where(
                        table.c.workspace_id == tenant.id, table.c.type == "deal.stage_changed"
                    )
                )
            ).all()
        )
    assert count == 1


async def test_patch_validates_stage_against_the_patched_pipeline(tenant):
    pipelines = await pipelines_of(tenant)
    created = await deal(tenant)
    url = f"/v1/deals/{created['id']}"
    # A seller stage alone does not fit the buyer pipeline ...
    response = await tenant.patch(url, json={"stage_id": pipelines["seller"]["stages"][1]["id"]})
    assert failing_fields(response) == {"stage_id"}
    # ... but does with the seller pipeline; a buyer stage then does not.
    response = await tenant.patch(
        url,
        json={
            "pipeline_id": pipelines["seller"]["id"],
            "stage_id": pipelines["buyer"]["stages"][1]["id"],
        },
    )
    assert failing_fields(response) == {"stage_id"}
    response = await tenant.patch(
        url,
        json={
            "pipeline_id": pipelines["seller"]["id"],
            "stage_id": pipelines["seller"]["stages"][1]["id"],
        },
    )
    assert response.status_code == 200
    assert response.json()["pipeline_id"] == pipelines["seller"]["id"]
    # Changing the pipeline alone lands on its first stage.
    response = await tenant.patch(url, json={"pipeline_id": pipelines["buyer"]["id"]})
    assert response.json()["stage_id"] == pipelines["buyer"]["stages"][0]["id"]


async def test_patch_fields_nulls_and_status(tenant):
    created = await deal(tenant, value="100", commission_rate="3", owner_id="usr_a")
    url = f"/v1/deals/{created['id']}"
    response = await tenant.patch(url, json={"status": "won", "value": "200", "owner_id": None})
    body = response.json()
    assert body["status"] == "won" and body["closed_at"] is not None
    assert body["value"] == "200.00" and body["commission_amount"] == "6.00"
    assert body["owner_id"] is None and body["title"] == created["title"]
    body = (await tenant.patch(url, json={"status": "open"})).json()
    assert body["closed_at"] is None
    for field in ("title", "status", "pipeline_id", "stage_id", "currency"):
        assert failing_fields(await tenant.patch(url, json={field: None})) == {field}
    assert failing_fields(await tenant.patch(url, json={"contact_id": "con_nope"})) == {
        "contact_id"
    }


async def test_list_filters_and_fields(tenant):
    pipelines = await pipelines_of(tenant)
    contact_id = await contact(tenant)
    first = await deal(tenant, contact_id=contact_id)
    second = await deal(tenant, pipeline_id=pipelines["seller"]["id"], status="won")
    third = await deal(tenant, owner_id="usr_x")

    async def ids(**params):
        response = await tenant.get("/v1/deals", params=params)
        assert response.status_code == 200, response.text
        return [item["id"] for item in response.json()["data"]]

    assert await ids() == [third["id"], second["id"], first["id"]]
    assert await ids(contact_id=contact_id) == [first["id"]]
    assert await ids(pipeline_id=pipelines["seller"]["id"]) == [second["id"]]
    assert await ids(stage_id=pipelines["buyer"]["stages"][0]["id"]) == [third["id"], first["id"]]
    assert await ids(status="won") == [second["id"]]
    assert await ids(owner_id="usr_x") == [third["id"]]
    page = (await tenant.get("/v1/deals", params={"limit": 2})).json()
    assert page["has_more"] and len(page["data"]) == 2
    rest = (
        await tenant.get("/v1/deals", params={"limit": 2, "cursor": page["next_cursor"]})
    ).json()
    assert [item["id"] for item in rest["data"]] == [first["id"]] and rest["next_cursor"] is None
    narrowed = (await tenant.get("/v1/deals", params={"fields": "title,value"})).json()["data"]
    assert all(set(item) == {"id", "title", "value"} for item in narrowed)
    assert failing_fields(await tenant.get("/v1/deals", params={"status": "x"})) == {"status"}
    assert failing_fields(await tenant.get("/v1/deals", params={"limit": 201})) == {"limit"}


async def test_scopes(make, tenant):
    readers = await make(["deals:read"])
    writers = await make(["deals:write"])
    others = await make(["contacts:read"])
    for path in ("/v1/deals", "/v1/pipelines", "/v1/deals/dea_x"):
        error = assert_error(await others.get(path), 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "deals:read"
    assert (await readers.get("/v1/pipelines")).status_code == 200
    error = assert_error(
        await readers.post("/v1/deals", json={"title": "T"}), 403, "insufficient_scope"
    )
    assert error["details"]["missing_scope"] == "deals:write"
    assert_error(await readers.patch("/v1/deals/dea_x", json={}), 403, "insufficient_scope")
    created = await deal(writers)  # deals:write implies deals:read
    assert (await writers.get(f"/v1/deals/{created['id']}")).status_code == 200


async def test_deal_survives_contact_anonymization(tenant):
    contact_id = await contact(tenant, phone="+14155550142")
    created = await deal(tenant, contact_id=contact_id)
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    fetched = (await tenant.get(f"/v1/deals/{created['id']}")).json()
    assert fetched["contact_id"] == contact_id
    assert (await tenant.get("/v1/deals", params={"contact_id": contact_id})).json()["data"]


async def test_deals_from_fixtures(tenant, runtime):
    created = await load(
        runtime,
        tenant,
        {
            "contacts": [{"ref": "dana", "first_name": "Dana"}],
            "deals": [
                {
                    "title": "Dana buys",
                    "pipeline": "buyer",
                    "stage": "under_contract",
                    "contact": "dana",
                    "value": "1000000",
                }
            ],
        },
    )
    body = (await tenant.get(f"/v1/deals/{created['deals'][0]}")).json()
    buyer = (await pipelines_of(tenant))["buyer"]
    assert body["stage_id"] == next(
        stage["id"] for stage in buyer["stages"] if stage["key"] == "under_contract"
    )
    assert body["contact_id"] == created["contacts"][0]


async def test_owner_id_must_name_a_member_of_this_workspace(tenant, other_tenant, runtime):
    """As a contact's: an unknown id and another workspace's member are 400 naming
    owner_id, on create and on update; a member or null is taken."""
    await add_members(runtime, other_tenant.id, "usr_theirs")
    pipeline_id = (await pipelines_of(tenant))["buyer"]["id"]
    for owner in ("usr_theirs", "usr_nobody"):
        response = await tenant.post(
            "/v1/deals", json={"title": "T", "pipeline_id": pipeline_id, "owner_id": owner}
        )
        assert failing_fields(response) == {"owner_id"}, owner
    assert (await tenant.get("/v1/deals")).json()["data"] == []  # nothing half-written
    created = await deal(tenant, owner_id="usr_maya")
    url = f"/v1/deals/{created['id']}"
    for owner in ("usr_theirs", "usr_nobody"):
        response = await tenant.patch(url, json={"status": "won", "owner_id": owner})
        assert failing_fields(response) == {"owner_id"}, owner
    unchanged = (await tenant.get(url)).json()
    assert (unchanged["owner_id"], unchanged["status"]) == ("usr_maya", "open")
    assert (await tenant.patch(url, json={"owner_id": "usr_a"})).json()["owner_id"] == "usr_a"
    assert (await tenant.patch(url, json={"owner_id": None})).json()["owner_id"] is None
