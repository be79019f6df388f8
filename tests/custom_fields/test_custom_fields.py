"""Custom fields of contacts and deals at the HTTP level, on SQLite and PostgreSQL: the
definitions (CRUD, scopes, bounds, the limit, keys), the values on contacts and deals
(each type's rules, merge, null), the lists' `custom.<key>=` filters, masking, erasure
and the background removal of a deleted field's values."""

import pytest
from sqlalchemy import func, select

from homebase.custom_fields import jobs
from homebase.custom_fields.definitions import MAX_FIELDS
from homebase.db.tenancy import TenantSession
from homebase.models import Contact, CustomField, CustomFieldValue, Deal, OutboxEvent
from homebase.webhooks import render as webhook_render
from tests.support import assert_error, failing_fields, make_key, walk_pages

FIELDS = "/v1/custom-fields"
SELECT_CHOICES = ["cash", "conventional", "fha"]
AREAS = ["noe_valley", "bernal", "mission"]


async def field(tenant, object="contacts", key="price_max", type="number", **extra) -> dict:
    body = {"object": object, "key": key, "label": key.replace("_", " ").title(), "type": type}
    response = await tenant.post(FIELDS, json={**body, **extra})
    assert response.status_code == 201, response.text
    return response.json()


async def every_type(tenant, object="contacts") -> dict[str, dict]:
    return {
        "memo": await field(tenant, object, "memo", "text"),
        "price_max": await field(tenant, object, "price_max", "number"),
        "move_in": await field(tenant, object, "move_in", "date"),
        "pre_approved": await field(tenant, object, "pre_approved", "boolean"),
        "financing": await field(
            tenant, object, "financing", "single_select", choices=SELECT_CHOICES
        ),
        "areas": await field(tenant, object, "areas", "multi_select", choices=AREAS),
    }


VALID = {
    "memo": "  Prefers mornings  ",
    "price_max": 1450000,
    "move_in": "2027-03-01",
    "pre_approved": True,
    "financing": "conventional",
    "areas": ["bernal", "noe_valley"],
}
STORED = {**VALID, "memo": "Prefers mornings"}  # text is trimmed


async def pipeline_id(tenant) -> str:
    pipelines = (await tenant.get("/v1/pipelines")).json()["data"]
    return next(item["id"] for item in pipelines if item["key"] == "buyer")


async def record(tenant, object: str, **body) -> dict:
    if object == "deals":
        body = {"title": "Reyes purchase", "pipeline_id": await pipeline_id(tenant), **body}
    response = await tenant.post(f"/v1/{object}", json=body)
    assert response.status_code == 201, response.text
    return response.json()


async def rows(runtime, workspace_id: str, model) -> list[dict]:
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, workspace_id)
        return await session.fetch_all(session.select(model.__table__))


# -- definitions ---------------------------------------------------------------------------


async def test_create_list_get_update_delete(tenant):
    created = await field(
        tenant, "deals", "financing", "single_select", choices=SELECT_CHOICES, label="Financing"
    )
    assert created["id"].startswith("cfd_")
    assert {k: created[k] for k in ("object", "key", "label", "type", "choices")} == {
        "object": "deals",
        "key": "financing",
        "label": "Financing",
        "type": "single_select",
        "choices": SELECT_CHOICES,
    }
    text = await field(tenant, "contacts", "memo", "text")
    assert text["choices"] is None

    listed = (await tenant.get(FIELDS)).json()["data"]
    assert [item["id"] for item in listed] == [text["id"], created["id"]]  # newest first
    only = (await tenant.get(FIELDS, params={"object": "deals"})).json()["data"]
    assert [item["id"] for item in only] == [created["id"]]
    assert (await tenant.get(f"{FIELDS}/{created['id']}")).json() == created

    patched = await tenant.patch(
        f"{FIELDS}/{created['id']}", json={"label": " Financing type ", "choices": ["cash", "va"]}
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["label"] == "Financing type"
    assert patched.json()["choices"] == ["cash", "va"]
    assert patched.json()["key"] == "financing"

    deleted = await tenant.delete(f"{FIELDS}/{created['id']}")
    assert deleted.status_code == 200
    assert deleted.json() == {"id": created["id"], "deleted": True}
    assert_error(await tenant.get(f"{FIELDS}/{created['id']}"), 404, "not_found")
    assert_error(await tenant.delete(f"{FIELDS}/{created['id']}"), 404, "not_found")
    assert_error(
        await tenant.patch(f"{FIELDS}/{created['id']}", json={"label": "x"}), 404, "not_found"
    )
    assert [item["id"] for item in (await tenant.get(FIELDS)).json()["data"]] == [text["id"]]
    # The key is free again at once.
    again = await field(tenant, "deals", "financing", "text")
    assert again["id"] != created["id"]


async def test_key_unique_per_workspace_and_object_and_immutable(tenant, other_tenant):
    await field(tenant, "contacts", "price_max")
    duplicate = await tenant.post(
        FIELDS, json={"object": "contacts", "key": "price_max", "label": "Again", "type": "text"}
    )
    assert_error(duplicate, 409, "conflict")
    await field(tenant, "deals", "price_max")  # another object
    await field(other_tenant, "contacts", "price_max")  # another workspace
    created = await field(tenant, "contacts", "memo", "text")
    changed = await tenant.patch(f"{FIELDS}/{created['id']}", json={"key": "other"})
    assert failing_fields(changed) == {"key"}
    for member, value in (("type", "number"), ("object", "deals")):
        refused = await tenant.patch(f"{FIELDS}/{created['id']}", json={member: value})
        assert failing_fields(refused) == {member}


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"key": "Price"}, {"key"}),
        ({"key": "1price"}, {"key"}),
        ({"key": "_price"}, {"key"}),
        ({"key": "price-max"}, {"key"}),
        ({"key": "p" * 41}, {"key"}),
        ({"key": ""}, {"key"}),
        ({"label": ""}, {"label"}),
        ({"label": "   "}, {"label"}),
        ({"label": "x" * 81}, {"label"}),
        ({"type": "money"}, {"type"}),
        ({"object": "leads"}, {"object"}),
        ({"type": "single_select"}, {"choices"}),
        ({"type": "multi_select", "choices": []}, {"choices"}),
        ({"type": "single_select", "choices": ["a", "a"]}, {"choices"}),
        ({"type": "single_select", "choices": [f"c{n}" for n in range(101)]}, {"choices"}),
        ({"type": "single_select", "choices": ["x" * 81]}, {"choices.0"}),
        ({"type": "single_select", "choices": [" "]}, {"choices.0"}),
        ({"type": "text", "choices": ["a"]}, {"choices"}),
        ({"extra": 1}, {"extra"}),
    ],
)
async def test_definition_bounds(tenant, body, fields):
    base = {"object": "contacts", "key": "price_max", "label": "Price", "type": "number"}
    response = await tenant.post(FIELDS, json={**base, **body})
    assert failing_fields(response) == fields
    assert (await tenant.get(FIELDS)).json()["data"] == []


async def test_a_key_of_forty_characters_is_taken(tenant):
    await field(tenant, "contacts", "a" + "b_9" * 13, "text")


async def test_patch_bounds(tenant):
    text = await field(tenant, "contacts", "memo", "text")
    select_ = await field(tenant, "contacts", "financing", "single_select", choices=["a", "b"])
    assert failing_fields(
        await tenant.patch(f"{FIELDS}/{text['id']}", json={"choices": ["a"]})
    ) == {"choices"}
    url = f"{FIELDS}/{select_['id']}"
    for body, failing in (
        ({"choices": None}, {"choices"}),
        ({"choices": []}, {"choices"}),
        ({"choices": ["a", "a"]}, {"choices"}),
        ({"label": None}, {"label"}),
        ({"label": ""}, {"label"}),
    ):
        assert failing_fields(await tenant.patch(url, json=body)) == failing, body


async def test_at_most_100_fields_per_object(tenant):
    for n in range(MAX_FIELDS):
        await field(tenant, "contacts", f"field_{n}", "text")
    refused = await tenant.post(
        FIELDS, json={"object": "contacts", "key": "one_more", "label": "One more", "type": "text"}
    )
    error = assert_error(refused, 409, "conflict")
    assert "100" in error["message"]
    assert error["details"] == {"object": "contacts", "limit": 100}
    await field(tenant, "deals", "one_more", "text")  # the other object has room
    first = (await tenant.get(FIELDS, params={"object": "contacts", "limit": 200})).json()
    assert len(first["data"]) == MAX_FIELDS
    await tenant.delete(f"{FIELDS}/{first['data'][0]['id']}")
    await field(tenant, "contacts", "one_more", "text")  # a deleted field frees its place


async def test_scopes(tenant, make, runtime, client):
    contacts_field = await field(tenant, "contacts", "memo", "text")
    deals_field = await field(tenant, "deals", "memo", "text")

    async def as_(scopes):
        key = (await make_key(runtime, tenant.id, scopes))[1]
        return {"Authorization": f"token {key}"}

    readers = await as_(["contacts:read"])
    listed = (await client.get(FIELDS, headers=readers)).json()["data"]
    assert [item["id"] for item in listed] == [contacts_field["id"]]
    assert_error(
        await client.get(FIELDS, params={"object": "deals"}, headers=readers),
        403,
        "insufficient_scope",
    )
    assert_error(
        await client.get(f"{FIELDS}/{deals_field['id']}", headers=readers),
        403,
        "insufficient_scope",
    )
    deal_readers = await as_(["deals:read"])
    listed = (await client.get(FIELDS, headers=deal_readers)).json()["data"]
    assert [item["id"] for item in listed] == [deals_field["id"]]
    both = await as_(["deals:read", "contacts:read"])
    assert len((await client.get(FIELDS, headers=both)).json()["data"]) == 2
    nobody = await as_(["leads:read"])
    assert_error(await client.get(FIELDS, headers=nobody), 403, "insufficient_scope")

    writers = await as_(["contacts:write"])
    body = {"object": "deals", "key": "other", "label": "Other", "type": "text"}
    denied = await client.post(FIELDS, json=body, headers=writers)
    assert assert_error(denied, 403, "insufficient_scope")["details"] == {
        "missing_scope": "deals:write"
    }
    created = await client.post(FIELDS, json={**body, "object": "contacts"}, headers=writers)
    assert created.status_code == 201, created.text
    url = f"{FIELDS}/{deals_field['id']}"
    assert_error(
        await client.patch(url, json={"label": "x"}, headers=writers), 403, "insufficient_scope"
    )
    assert_error(await client.delete(url, headers=writers), 403, "insufficient_scope")
    assert (await client.delete(url, headers=await as_(["deals:write"]))).status_code == 200
    readonly = await as_(["contacts:read", "deals:read"])
    assert_error(await client.post(FIELDS, json=body, headers=readonly), 403, "insufficient_scope")


async def test_another_workspaces_field_is_404(tenant, other_tenant):
    created = await field(tenant, "contacts", "memo", "text")
    for response in (
        await other_tenant.get(f"{FIELDS}/{created['id']}"),
        await other_tenant.patch(f"{FIELDS}/{created['id']}", json={"label": "Mine"}),
        await other_tenant.delete(f"{FIELDS}/{created['id']}"),
    ):
        assert_error(response, 404, "not_found")
    assert (await other_tenant.get(FIELDS)).json()["data"] == []
    assert (await tenant.get(f"{FIELDS}/{created['id']}")).json() == created
    # Nor are its keys the other workspace's.
    refused = await other_tenant.post("/v1/contacts", json={"custom_fields": {"memo": "x"}})
    assert failing_fields(refused) == {"custom_fields.memo"}


async def test_removing_a_choice_in_use_is_refused(tenant):
    areas = await field(tenant, "contacts", "areas", "multi_select", choices=AREAS)
    await record(tenant, "contacts", custom_fields={"areas": ["bernal"]})
    url = f"{FIELDS}/{areas['id']}"
    refused = await tenant.patch(url, json={"choices": ["noe_valley"]})
    assert assert_error(refused, 409, "conflict")["details"] == {"choices_in_use": ["bernal"]}
    kept = await tenant.patch(url, json={"choices": ["bernal", "presidio"]})  # mission unused
    assert kept.status_code == 200 and kept.json()["choices"] == ["bernal", "presidio"]


# -- values ---------------------------------------------------------------------------------


BAD = [
    ("memo", 12, "must be a string"),
    ("memo", "   ", "must not be blank"),
    ("memo", "x" * 1001, "at most 1000"),
    ("price_max", "1450000", "JSON number"),
    ("price_max", True, "JSON number"),
    ("price_max", 1e16, "between"),
    ("move_in", "03/01/2027", "YYYY-MM-DD"),
    ("move_in", "2027-02-30", "not a real date"),
    ("move_in", 20270301, "YYYY-MM-DD"),
    ("pre_approved", "true", "true or false"),
    ("pre_approved", 1, "true or false"),
    ("financing", "barter", "choices"),
    ("financing", ["cash"], "choices"),
    ("areas", "bernal", "array"),
    ("areas", ["bernal", "bernal"], "repeat"),
    ("areas", ["bernal", "soma"], "item 1 is not among the field's choices"),  # never "soma"
    ("areas", [1], "array"),
    ("unknown_key", "x", "is not a custom field"),
]


@pytest.mark.parametrize("object", ["contacts", "deals"])
async def test_values_are_checked_by_type_on_create_and_update(tenant, object):
    await every_type(tenant, object)
    made = await record(tenant, object, custom_fields=VALID)
    assert made["custom_fields"] == STORED
    url = f"/v1/{object}/{made['id']}"
    for key, value, message in BAD:
        for response in (
            await tenant.post(
                f"/v1/{object}",
                json={
                    **(
                        {"title": "x", "pipeline_id": await pipeline_id(tenant)}
                        if object == "deals"
                        else {}
                    ),
                    "custom_fields": {key: value},
                },
            ),
            await tenant.patch(url, json={"custom_fields": {key: value}}),
        ):
            error = assert_error(response, 400, "validation_failed")
            [item] = error["details"]["errors"]
            assert item["field"] == f"custom_fields.{key}", item
            assert item["in"] == "body"
            assert message in item["message"], (key, value, item)
    # Every failing key at once; nothing was written.
    both = await tenant.patch(
        url, json={"custom_fields": {"price_max": "x", "move_in": "y", "memo": "fine"}}
    )
    assert failing_fields(both) == {"custom_fields.price_max", "custom_fields.move_in"}
    assert (await tenant.get(url)).json()["custom_fields"] == STORED
    listed = (await tenant.get(f"/v1/{object}")).json()["data"]
    assert len(listed) == 1
    assert failing_fields(await tenant.patch(url, json={"custom_fields": None})) == {
        "custom_fields"
    }
    assert failing_fields(await tenant.patch(url, json={"custom_fields": [1]})) == {"custom_fields"}


@pytest.mark.parametrize("object", ["contacts", "deals"])
async def test_update_merges_and_null_removes(tenant, runtime, object):
    await every_type(tenant, object)
    made = await record(tenant, object, custom_fields={"price_max": 500000, "memo": "a"})
    url = f"/v1/{object}/{made['id']}"
    response = await tenant.patch(url, json={"custom_fields": {"move_in": "2027-01-02"}})
    assert response.status_code == 200, response.text
    updated = response.json()
    assert updated["custom_fields"] == {"memo": "a", "price_max": 500000, "move_in": "2027-01-02"}
    assert updated["updated_at"] > made["updated_at"]
    again = (
        await tenant.patch(
            url, json={"custom_fields": {"memo": None, "price_max": 2.5, "areas": []}}
        )
    ).json()
    assert again["custom_fields"] == {"price_max": 2.5, "move_in": "2027-01-02"}
    # The same values again change nothing, not even updated_at.
    same = (await tenant.patch(url, json={"custom_fields": {"price_max": 2.5}})).json()
    assert same["updated_at"] == again["updated_at"]
    assert (await tenant.get(url)).json()["custom_fields"] == again["custom_fields"]
    stored = await rows(runtime, tenant.id, CustomFieldValue)
    assert sorted((row["value_key"], row["value_number"]) for row in stored) == [
        ("2.5", 2.5),
        ("2027-01-02", None),
    ]


async def test_a_change_emits_contact_updated(tenant, runtime):
    await every_type(tenant)
    made = await record(tenant, "contacts", first_name="Dana")
    assert made["custom_fields"] == {}
    await tenant.patch(
        f"/v1/contacts/{made['id']}",
        json={"custom_fields": {"memo": "call dana@example.com"}, "first_name": "Dana"},
    )
    await tenant.patch(
        f"/v1/contacts/{made['id']}", json={"custom_fields": {"memo": "call dana@example.com"}}
    )
    async with runtime.db.transaction(write=False) as connection:
        table = OutboxEvent.__table__
        events = (
            await connection.execute(
                select(table.c.data)
                .where(table.c.workspace_id == tenant.id, table.c.type == "contact.updated")
                .order_by(table.c.id)
            )
        ).all()
    assert len(events) == 1  # the second PATCH changed nothing
    data = webhook_render.masked(events[0].data)  # as a delivery carries it
    assert data["changed"] == ["custom_fields"]
    assert data["custom_fields"] == {"memo": "call d***@example.com"}


async def test_fields_selects_custom_fields(tenant):
    await every_type(tenant)
    made = await record(tenant, "contacts", custom_fields={"pre_approved": False})
    one = (
        await tenant.get(f"/v1/contacts/{made['id']}", params={"fields": "custom_fields"})
    ).json()
    assert one == {"id": made["id"], "pii_masked": False, "custom_fields": {"pre_approved": False}}
    listed = (await tenant.get("/v1/contacts", params={"fields": "custom_fields"})).json()["data"]
    assert listed == [one]
    await every_type(tenant, "deals")
    deal = await record(tenant, "deals", custom_fields={"financing": "cash"})
    shown = (await tenant.get("/v1/deals", params={"fields": "custom_fields"})).json()["data"]
    assert shown == [{"id": deal["id"], "custom_fields": {"financing": "cash"}}]


@pytest.mark.parametrize("object", ["contacts", "deals"])
async def test_text_values_are_masked_without_pii(tenant, runtime, client, object):
    await every_type(tenant, object)
    memo = "Call (415) 555-0142 or dana.reyes@example.com"
    made = await record(tenant, object, custom_fields={"memo": memo, "financing": "cash"})
    assert made["custom_fields"]["memo"] == memo  # the tenant's key holds contacts:read:pii
    scopes = ["contacts:read"] if object == "contacts" else ["deals:read"]
    key = (await make_key(runtime, tenant.id, scopes))[1]
    headers = {"Authorization": f"token {key}"}
    masked = "Call (***) ***-0142 or d***@example.com"
    single = (await client.get(f"/v1/{object}/{made['id']}", headers=headers)).json()
    assert single["custom_fields"] == {"memo": masked, "financing": "cash"}
    listed = (await client.get(f"/v1/{object}", headers=headers)).json()["data"]
    assert listed[0]["custom_fields"] == single["custom_fields"]


# -- filters ---------------------------------------------------------------------------------


@pytest.mark.parametrize("object", ["contacts", "deals"])
async def test_filter_by_each_type(tenant, object):
    await every_type(tenant, object)
    first = await record(tenant, object, custom_fields=VALID)
    second = await record(
        tenant,
        object,
        custom_fields={
            "memo": "Prefers evenings",
            "price_max": 900000.5,
            "move_in": "2027-04-01",
            "pre_approved": False,
            "financing": "cash",
            "areas": ["mission", "bernal"],
        },
    )
    await record(tenant, object)  # no values

    async def ids(**params) -> list[str]:
        response = await tenant.get(f"/v1/{object}", params=params)
        assert response.status_code == 200, response.text
        return [item["id"] for item in response.json()["data"]]

    one, two = [first["id"]], [second["id"]]
    assert await ids(**{"custom.memo": "Prefers mornings"}) == one
    assert await ids(**{"custom.memo": "  Prefers mornings "}) == one
    assert await ids(**{"custom.memo": "prefers mornings"}) == []  # exact
    assert await ids(**{"custom.price_max": "1450000"}) == one
    assert await ids(**{"custom.price_max": "1450000.0"}) == one
    assert await ids(**{"custom.price_max": "1.45e6"}) == one
    assert await ids(**{"custom.price_max": "900000.5"}) == two
    assert await ids(**{"custom.move_in": "2027-04-01"}) == two
    assert await ids(**{"custom.pre_approved": "true"}) == one
    assert await ids(**{"custom.pre_approved": "false"}) == two
    assert await ids(**{"custom.financing": "conventional"}) == one
    assert await ids(**{"custom.areas": "bernal"}) == sorted(one + two, reverse=True)
    assert await ids(**{"custom.areas": "mission"}) == two
    assert await ids(**{"custom.areas": "bernal", "custom.financing": "cash"}) == two
    assert await ids(**{"custom.areas": "noe_valley", "custom.financing": "cash"}) == []
    pages = await walk_pages(tenant, f"/v1/{object}", {"custom.areas": "bernal", "limit": 1})
    assert pages == sorted(one + two, reverse=True)

    for name, value, message in (
        ("price_max", "abc", "number"),
        ("price_max", "1e400", "number"),
        ("move_in", "2027-13-01", "date"),
        ("pre_approved", "yes", "true or false"),
        ("financing", "barter", "choices"),
        ("areas", "soma", "choices"),
        ("memo", "   ", "text"),
        ("nope", "1", "is not a custom field"),
    ):
        error = assert_error(
            await tenant.get(f"/v1/{object}", params={f"custom.{name}": value}),
            400,
            "validation_failed",
        )
        [item] = error["details"]["errors"]
        assert item["field"] == f"custom.{name}" and item["in"] == "query", item
        assert message in item["message"], item
    bad_name = await tenant.get(f"/v1/{object}", params={"custom.Bad-Name": "1"})
    assert failing_fields(bad_name) == {"custom.Bad-Name"}
    many = {f"custom.k{n}": "1" for n in range(6)}
    assert "custom" in failing_fields(await tenant.get(f"/v1/{object}", params=many))


async def test_contact_filters_combine(tenant):
    await every_type(tenant)
    hot = await record(
        tenant, "contacts", first_name="Dana", stage="HOT_LEAD", tags=["vip"],
        custom_fields={"pre_approved": True},
    )  # fmt: skip
    await record(
        tenant, "contacts", first_name="Lee", stage="LEAD", tags=["vip"],
        custom_fields={"pre_approved": True},
    )  # fmt: skip

    async def ids(**params) -> list[str]:
        response = await tenant.get(
            "/v1/contacts", params={"custom.pre_approved": "true", **params}
        )
        assert response.status_code == 200, response.text
        return [item["id"] for item in response.json()["data"]]

    assert len(await ids()) == 2
    assert await ids(stage="HOT_LEAD") == [hot["id"]]
    assert await ids(tag="vip", q="dana") == [hot["id"]]
    assert await ids(tag="other") == []


async def test_the_filter_walks_the_values_index(tenant, runtime):
    from homebase.contacts import repository
    from homebase.contacts.schemas import ContactFilters

    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        statement, values = repository.list_statement(
            session,
            ContactFilters(),
            pii=True,
            after_id="con_zzzz",
            limit=50,
            custom=(("cfd_1", "a"), ("cfd_2", "b")),
        )
        sql = str(
            statement.params(values).compile(
                dialect=connection.dialect, compile_kwargs={"literal_binds": True}
            )
        )
        if runtime.db.is_sqlite:
            plan = " ".join(
                row[3] for row in (await connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))
            )
            # The primary key (field_id, value_key, record_id), SQLite's automatic index.
            assert (
                "SEARCH custom_value_0 USING INDEX sqlite_autoindex_custom_field_values_1 "
                "(field_id=? AND value_key=? AND record_id<?)"
            ) in plan, plan
            assert "TEMP B-TREE" not in plan, plan
        else:
            # The session's database is emptied by DELETE after each test, so earlier tests'
            # value rows leave index pages behind until a vacuum, and the planner costs
            # the indexes by their pages: rebuilt, they are as a fresh database has them
            # (the plan flipped to another index after tests/custom_fields/test_bounds.py).
            await connection.exec_driver_sql("REINDEX TABLE custom_field_values")
            await connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
            plan = " ".join(
                row[0] for row in (await connection.exec_driver_sql("EXPLAIN " + sql)).all()
            )
            assert (
                "Index Scan Backward using pk_custom_field_values on custom_field_values "
                "custom_value_0" in plan
            ), plan
            assert "Sort" not in plan, plan


# -- erasure and deletion -------------------------------------------------------------------------


async def test_erasure_removes_the_contacts_values(tenant, runtime):
    await every_type(tenant)
    erased = await record(tenant, "contacts", custom_fields=VALID)
    kept = await record(tenant, "contacts", custom_fields={"memo": "kept"})
    assert (await tenant.delete(f"/v1/contacts/{erased['id']}")).status_code == 200
    assert (await tenant.get(f"/v1/contacts/{erased['id']}")).json()["custom_fields"] == {}
    remaining = await rows(runtime, tenant.id, CustomFieldValue)
    assert {row["record_id"] for row in remaining} == {kept["id"]}
    contacts = {row["id"]: row for row in await rows(runtime, tenant.id, Contact)}
    assert contacts[erased["id"]]["custom_fields"] == {}
    listed = await tenant.get("/v1/contacts", params={"custom.financing": "conventional"})
    assert listed.json()["data"] == []
    # Its contact.updated event (the erasure's) carries no custom value either.
    assert (await tenant.delete(f"/v1/contacts/{erased['id']}")).status_code == 200
    writes = await tenant.patch(
        f"/v1/contacts/{erased['id']}", json={"custom_fields": {"memo": "x"}}
    )
    assert_error(writes, 409, "contact_erased")


@pytest.mark.parametrize("object", ["contacts", "deals"])
async def test_a_deleted_fields_values_vanish_at_once_and_the_worker_removes_them(
    tenant, other_tenant, runtime, object
):
    fields = await every_type(tenant, object)
    made = [await record(tenant, object, custom_fields=VALID) for _ in range(3)]
    theirs = await every_type(other_tenant, object)
    other = await record(other_tenant, object, custom_fields=VALID)
    assert (await tenant.delete(f"{FIELDS}/{fields['areas']['id']}")).status_code == 200
    # Before the job ran: no response shows it, no filter knows it.
    expected = {key: value for key, value in STORED.items() if key != "areas"}
    for item in made:
        assert (await tenant.get(f"/v1/{object}/{item['id']}")).json()["custom_fields"] == expected
    assert all(
        item["custom_fields"] == expected
        for item in (await tenant.get(f"/v1/{object}")).json()["data"]
    )
    gone = await tenant.get(f"/v1/{object}", params={"custom.areas": "bernal"})
    assert failing_fields(gone) == {"custom.areas"}
    # The key re-created at once starts empty, whatever the old rows hold.
    recreated = await field(tenant, object, "areas", "multi_select", choices=["bernal"])
    assert (await tenant.get(f"/v1/{object}/{made[0]['id']}")).json()["custom_fields"] == expected
    assert (await tenant.get(f"/v1/{object}", params={"custom.areas": "bernal"})).json()[
        "data"
    ] == []

    assert await jobs.purge_deleted(runtime) > 0
    while await jobs.purge_deleted(runtime):
        pass
    stored = await rows(runtime, tenant.id, CustomFieldValue)
    assert fields["areas"]["id"] not in {row["field_id"] for row in stored}
    assert len(stored) == 3 * 5  # the other five fields' values stay
    model = Contact if object == "contacts" else Deal
    for row in await rows(runtime, tenant.id, model):
        assert fields["areas"]["id"] not in row["custom_fields"]
        assert fields["price_max"]["id"] in row["custom_fields"]
    definitions = await rows(runtime, tenant.id, CustomField)
    assert fields["areas"]["id"] not in {row["id"] for row in definitions}
    assert recreated["id"] in {row["id"] for row in definitions}
    # The other workspace's field of the same key is untouched.
    assert (await other_tenant.get(f"/v1/{object}/{other['id']}")).json()["custom_fields"] == STORED
    theirs_rows = await rows(runtime, other_tenant.id, CustomFieldValue)
    assert theirs["areas"]["id"] in {row["field_id"] for row in theirs_rows}
    assert await jobs.purge_deleted(runtime) == 0


async def test_purge_runs_in_bounded_batches(tenant, runtime, monkeypatch):
    from homebase.custom_fields import service

    monkeypatch.setattr(service, "PURGE_BATCH", 2)
    memo = await field(tenant, "contacts", "memo", "text")
    for n in range(5):
        await record(tenant, "contacts", custom_fields={"memo": f"m{n}"})
    await tenant.delete(f"{FIELDS}/{memo['id']}")
    monkeypatch.setattr(jobs, "BATCHES_PER_ROUND", 1)
    counts = []
    while done := await jobs.purge_deleted(runtime):
        counts.append(done)
    assert counts == [3, 3, 2]  # records cleared (2, 2, 1), each batch plus its field
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        left = await session.fetch_one(
            session.select(CustomFieldValue.__table__, func.count().label("n"))
        )
    assert left == {"n": 0}


async def test_long_texts_are_filtered_by_their_digest(tenant, runtime):
    await field(tenant, "contacts", "memo", "text")
    long_text, lookalike = "x" * 1000, "sha256:" + "0" * 64
    first = await record(tenant, "contacts", custom_fields={"memo": long_text})
    second = await record(tenant, "contacts", custom_fields={"memo": lookalike})
    for value, expected in ((long_text, first), (lookalike, second)):
        found = await tenant.get("/v1/contacts", params={"custom.memo": value})
        assert [item["id"] for item in found.json()["data"]] == [expected["id"]]
        shown = (await tenant.get(f"/v1/contacts/{expected['id']}")).json()
        assert shown["custom_fields"] == {"memo": value}
    keys = [row["value_key"] for row in await rows(runtime, tenant.id, CustomFieldValue)]
    assert all(key.startswith("sha256:") and len(key) == 71 for key in keys), keys
    assert len(set(keys)) == 2
