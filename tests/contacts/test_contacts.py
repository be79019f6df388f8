"""Every contact rule of the spec, at the HTTP level, on SQLite and PostgreSQL."""

import pytest
from sqlalchemy import select

from homebase.models import Contact, TimelineEvent
from tests.support import add_members, assert_error, failing_fields

FULL = {
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "phone": "+1 415 555 0142",
    "stage": "HOT_LEAD",
    "source": "Zillow",
    "tags": ["buyer", "pre-approved"],
    "notes": "Wants 3 beds.",
    "owner_id": "usr_abc",
}


# Members of the `tenant` workspace (below), so bodies may name them as owner_id.
OWNERS = ("usr_abc", "usr_maya", "usr_priya", "o" * 40)


@pytest.fixture
async def tenant(tenant, runtime):
    await add_members(runtime, tenant.id, *OWNERS)
    return tenant


async def create(tenant, **fields):
    response = await tenant.post("/v1/contacts", json=fields)
    assert response.status_code == 201, response.text
    return response.json()


async def test_create_returns_every_field(tenant):
    body = await create(tenant, **FULL)
    assert body["id"].startswith("con_") and not body["id"].isdigit()
    for name, value in FULL.items():
        assert body[name] == value
    assert body["pii_masked"] is False
    assert body["ai_auto_response_paused"] is False
    assert body["anonymized_at"] is None


async def test_create_with_empty_body_defaults(tenant):
    body = await create(tenant)
    assert body["stage"] == "LEAD" and body["tags"] == []
    assert body["first_name"] is None and body["email"] is None


async def test_retrieve(tenant):
    created = await create(tenant, **FULL)
    response = await tenant.get(f"/v1/contacts/{created['id']}")
    assert response.status_code == 200
    assert response.json() == created


@pytest.mark.parametrize(
    ("field", "ok", "too_long"),
    [
        ("first_name", "a" * 80, "a" * 81),
        ("last_name", "a" * 80, "a" * 81),
        ("phone", "1" * 32, "1" * 33),
        ("source", "s" * 80, "s" * 81),
        ("notes", "n" * 20000, "n" * 20001),
        ("owner_id", "o" * 40, "o" * 41),
    ],
)
async def test_field_length_limits(tenant, field, ok, too_long):
    assert (await tenant.post("/v1/contacts", json={field: ok})).status_code == 201
    assert failing_fields(await tenant.post("/v1/contacts", json={field: too_long})) == {field}


async def test_tag_limits(tenant):
    assert (
        await tenant.post("/v1/contacts", json={"tags": [f"t{i}" for i in range(30)]})
    ).status_code == 201
    assert failing_fields(
        await tenant.post("/v1/contacts", json={"tags": [f"t{i}" for i in range(31)]})
    ) == {"tags"}
    assert (await tenant.post("/v1/contacts", json={"tags": ["x" * 40]})).status_code == 201
    assert failing_fields(await tenant.post("/v1/contacts", json={"tags": ["ok", "x" * 41]})) == {
        "tags.1"
    }


@pytest.mark.parametrize(
    "email",
    [
        "dana@example.com",
        "d.r+tag@mail.example.co.uk",
        "o'brien@example.ie",
        "x_y-z@sub-domain.example.org",
    ],
)
async def test_valid_emails(tenant, email):
    assert (await tenant.post("/v1/contacts", json={"email": email})).status_code == 201


@pytest.mark.parametrize(
    "email",
    [
        ".dana@example.com",
        "da..na@example.com",
        "dana.@example.com",
        "dana@",
        "@example.com",
        "dana@example",
        "dana example.com",
        "dana@exa..mple.com",
        "dana@-example.com",
        "",
    ],
)
async def test_invalid_emails(tenant, email):
    assert failing_fields(await tenant.post("/v1/contacts", json={"email": email})) == {"email"}


async def test_every_failing_field_is_named_and_nothing_is_written(tenant, runtime):
    response = await tenant.post(
        "/v1/contacts",
        json={
            "first_name": "a" * 81,
            "email": "bad..x@example.com",
            "stage": "NOPE",
            "tags": "not-a-list",
            "nickname": "extra",
        },
    )
    assert failing_fields(response) == {"first_name", "email", "stage", "tags", "nickname"}
    assert (await tenant.get("/v1/contacts")).json()["data"] == []


@pytest.mark.parametrize("value", [123, True, ["x"], {"a": 1}])
async def test_wrong_types_are_400(tenant, value):
    assert failing_fields(await tenant.post("/v1/contacts", json={"first_name": value})) == {
        "first_name"
    }


async def test_body_must_be_an_object(tenant):
    assert_error(await tenant.post("/v1/contacts", json=["x"]), 400, "validation_failed")


async def test_patch_updates_only_given_fields(tenant):
    created = await create(tenant, **FULL)
    response = await tenant.patch(
        f"/v1/contacts/{created['id']}", json={"first_name": "Danielle", "tags": ["seller"]}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["first_name"] == "Danielle" and body["tags"] == ["seller"]
    assert body["last_name"] == "Reyes" and body["email"] == FULL["email"]
    assert body["updated_at"] >= created["updated_at"]


@pytest.mark.parametrize(
    "field", ["first_name", "last_name", "email", "phone", "source", "notes", "owner_id"]
)
async def test_patch_accepts_null_to_clear(tenant, field):
    created = await create(tenant, **FULL)
    response = await tenant.patch(f"/v1/contacts/{created['id']}", json={field: None})
    assert response.status_code == 200
    assert response.json()[field] is None


@pytest.mark.parametrize("field", ["stage", "tags"])
async def test_patch_refuses_null_for_stage_and_tags(tenant, field):
    created = await create(tenant, **FULL)
    response = await tenant.patch(f"/v1/contacts/{created['id']}", json={field: None})
    assert failing_fields(response) == {field}
    assert (await tenant.get(f"/v1/contacts/{created['id']}")).json()[field] == FULL[field]


async def test_patch_any_stage_to_any_stage(tenant):
    contact = await create(tenant)
    for stage in ["TRASH", "SPHERE", "LEAD", "PAST_CLIENT", "HOT_LEAD", "ACTIVE_CLIENT", "NURTURE"]:
        response = await tenant.patch(f"/v1/contacts/{contact['id']}", json={"stage": stage})
        assert response.status_code == 200 and response.json()["stage"] == stage


async def test_unknown_and_foreign_ids_are_the_same_404(tenant, other_tenant):
    theirs = await create(other_tenant, first_name="Theirs")
    unknown = await tenant.get("/v1/contacts/con_00000000000000000000000000")
    foreign = await tenant.get(f"/v1/contacts/{theirs['id']}")
    unknown_error = assert_error(unknown, 404, "not_found")
    foreign_error = assert_error(foreign, 404, "not_found")
    assert unknown_error["message"] == foreign_error["message"]
    for method, path, body in [
        ("patch", "", {"first_name": "Mine"}),
        ("delete", "", None),
        ("get", "/events", None),
        ("get", "/notes", None),
        ("post", "/notes", {"body": "hi"}),
    ]:
        url = f"/v1/contacts/{theirs['id']}{path}"
        call = getattr(tenant, method)
        response = await (call(url, json=body) if body is not None else call(url))
        assert_error(response, 404, "not_found")
    after = (await other_tenant.get(f"/v1/contacts/{theirs['id']}")).json()
    assert after == theirs


# --- masking ---------------------------------------------------------------------------


async def test_pii_is_masked_without_the_pii_scope(tenant, runtime, client):
    created = await create(tenant, **FULL)
    key = await _key(runtime, tenant.id, ["contacts:read"])
    headers = {"Authorization": f"token {key}"}
    body = (await client.get(f"/v1/contacts/{created['id']}", headers=headers)).json()
    assert body["pii_masked"] is True
    assert body["email"] == "d***@example.com"
    assert body["phone"] == "+* *** *** 0142"
    assert body["first_name"] == "Dana"
    listed = (await client.get("/v1/contacts", headers=headers)).json()["data"][0]
    assert listed["phone"] == "+* *** *** 0142" and listed["pii_masked"] is True


@pytest.mark.parametrize(
    ("phone", "masked"),
    [
        ("(510) 555-0199", "(***) ***-0199"),
        ("4155550142", "******0142"),
        ("1-800-FLOWERS", "1-800-*******"),
        ("415 555 0142 x7", "*** *** *142 *7"),
        ("call dana", "**** ****"),
        ("0142", "0142"),
    ],
)
async def test_every_letter_and_digit_but_the_last_four_digits_is_masked(
    tenant, runtime, client, phone, masked
):
    created = await create(tenant, phone=phone)
    key = await _key(runtime, tenant.id, ["contacts:read"])
    headers = {"Authorization": f"token {key}"}
    one = (await client.get(f"/v1/contacts/{created['id']}", headers=headers)).json()
    listed = (await client.get("/v1/contacts", headers=headers)).json()["data"][0]
    assert one["phone"] == listed["phone"] == masked
    assert one["pii_masked"] is True


async def test_masked_value_can_be_told_from_an_absent_one(tenant, runtime, client):
    created = await create(tenant, first_name="NoPhone")
    key = await _key(runtime, tenant.id, ["contacts:read"])
    body = (
        await client.get(f"/v1/contacts/{created['id']}", headers={"Authorization": f"token {key}"})
    ).json()
    assert body["phone"] is None and body["email"] is None and body["pii_masked"] is True


async def test_pii_scope_sees_full_values(tenant, runtime, client):
    created = await create(tenant, **FULL)
    key = await _key(runtime, tenant.id, ["contacts:read:pii"])
    body = (
        await client.get(f"/v1/contacts/{created['id']}", headers={"Authorization": f"token {key}"})
    ).json()
    assert body["pii_masked"] is False and body["phone"] == FULL["phone"]


async def _key(runtime, workspace_id, scopes):
    from tests.support import make_key

    return (await make_key(runtime, workspace_id, scopes))[1]


# --- list filters ----------------------------------------------------------------------


@pytest.fixture
async def roster(tenant):
    people = [
        dict(
            first_name="Dana",
            last_name="Reyes",
            email="dana@example.com",
            phone="+14155550142",
            stage="HOT_LEAD",
            source="Zillow",
            tags=["buyer"],
            owner_id="usr_maya",
        ),
        dict(
            first_name="Sam",
            last_name="Okafor",
            email="sam@okafor.net",
            phone="(510) 555-0199",
            stage="ACTIVE_CLIENT",
            source="Referral",
            tags=["seller", "vip"],
            owner_id="usr_priya",
        ),
        dict(
            first_name="Grace",
            last_name="Lindqvist",
            email="grace@example.org",
            phone="+1 650 555 0123",
            stage="NURTURE",
            source="Zillow",
            tags=["buyer", "vip"],
            owner_id="usr_maya",
        ),
    ]
    return [await create(tenant, **person) for person in people]


async def names(tenant, query, headers=None):
    response = await tenant.get(f"/v1/contacts?{query}")
    assert response.status_code == 200, response.text
    return sorted(item["first_name"] for item in response.json()["data"])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("stage=HOT_LEAD", ["Dana"]),
        ("source=Zillow", ["Dana", "Grace"]),
        ("tag=vip", ["Grace", "Sam"]),
        ("tag=buyer&stage=NURTURE", ["Grace"]),
        ("owner_id=usr_maya", ["Dana", "Grace"]),
        ("q=lindq", ["Grace"]),
        ("q=SAM", ["Sam"]),
        ("q=Dana%20Reyes", ["Dana"]),
        ("q=okafor.net", ["Sam"]),
        ("q=555-0199", ["Sam"]),
        ("q=5105550199", ["Sam"]),
        ("q=nobody", []),
        ("q=100%25", []),
        ("tag=nope", []),
    ],
)
async def test_list_filters(tenant, roster, query, expected):
    assert await names(tenant, query) == expected


async def test_masked_search_matches_only_exact_email_or_phone(tenant, roster, runtime, client):
    key = await _key(runtime, tenant.id, ["contacts:read"])
    headers = {"Authorization": f"token {key}"}

    async def found(q):
        response = await client.get("/v1/contacts", params={"q": q}, headers=headers)
        return sorted(item["first_name"] for item in response.json()["data"])

    assert await found("okafor.net") == []
    assert await found("sam@okafor.net") == ["Sam"]
    assert await found("555-01") == []
    assert await found("(510) 555-0199") == ["Sam"]
    assert await found("grace") == ["Grace"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("stage=NOPE", "stage"),
        ("source=" + "s" * 81, "source"),
        ("tag=" + "t" * 41, "tag"),
        ("q=" + "q" * 121, "q"),
        ("owner_id=" + "o" * 41, "owner_id"),
    ],
)
async def test_list_filter_validation(tenant, query, field):
    assert failing_fields(await tenant.get(f"/v1/contacts?{query}")) == {field}


# --- notes and timeline -----------------------------------------------------------------


async def test_note_is_an_event_and_pauses_ai(tenant):
    contact = await create(tenant, first_name="Noted")
    response = await tenant.post(
        f"/v1/contacts/{contact['id']}/notes", json={"body": "Called; wants a Saturday showing."}
    )
    assert response.status_code == 201
    note = response.json()
    assert note["id"].startswith("tev_") and note["type"] == "note"
    assert note["body"] == "Called; wants a Saturday showing."
    assert note["contact_id"] == contact["id"] and note["actor"] == tenant.key_id
    after = (await tenant.get(f"/v1/contacts/{contact['id']}")).json()
    assert after["ai_auto_response_paused"] is True
    assert after["ai_auto_response_paused_at"] == note["occurred_at"]
    notes = (await tenant.get(f"/v1/contacts/{contact['id']}/notes")).json()
    assert [item["id"] for item in notes["data"]] == [note["id"]]
    assert notes["has_more"] is False and notes["next_cursor"] is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"body": ""}, "body"),
        ({"body": "x" * 20001}, "body"),
        ({}, "body"),
        ({"body": None}, "body"),
        ({"body": "ok", "extra": 1}, "extra"),
    ],
)
async def test_note_validation(tenant, body, field):
    contact = await create(tenant)
    assert failing_fields(await tenant.post(f"/v1/contacts/{contact['id']}/notes", json=body)) == {
        field
    }


async def test_note_of_max_length(tenant):
    contact = await create(tenant)
    response = await tenant.post(f"/v1/contacts/{contact['id']}/notes", json={"body": "x" * 20000})
    assert response.status_code == 201


async def test_timeline_has_notes_and_stage_changes_newest_first(tenant):
    contact = await create(tenant, stage="LEAD")
    await tenant.post(f"/v1/contacts/{contact['id']}/notes", json={"body": "first"})
    await tenant.patch(f"/v1/contacts/{contact['id']}", json={"stage": "HOT_LEAD"})
    await tenant.patch(f"/v1/contacts/{contact['id']}", json={"stage": "HOT_LEAD"})  # no change
    events = (await tenant.get(f"/v1/contacts/{contact['id']}/events")).json()["data"]
    assert [event["type"] for event in events] == ["stage_changed", "note"]
    assert events[0]["data"] == {"previous_stage": "LEAD", "stage": "HOT_LEAD"}
    assert events[0]["title"] == "Stage changed from LEAD to HOT_LEAD"
    notes = (await tenant.get(f"/v1/contacts/{contact['id']}/notes")).json()["data"]
    assert [event["type"] for event in notes] == ["note"]


async def test_timeline_needs_events_read(tenant, runtime, client):
    contact = await create(tenant)
    key = await _key(runtime, tenant.id, ["contacts:write"])
    response = await client.get(
        f"/v1/contacts/{contact['id']}/events", headers={"Authorization": f"token {key}"}
    )
    assert assert_error(response, 403, "insufficient_scope")["details"] == {
        "missing_scope": "events:read"
    }


# --- anonymization ----------------------------------------------------------------------


async def test_delete_anonymizes_in_place(tenant, runtime):
    contact = await create(tenant, **FULL)
    await tenant.post(f"/v1/contacts/{contact['id']}/notes", json={"body": "Lives at 12 Elm St"})
    await tenant.patch(f"/v1/contacts/{contact['id']}", json={"stage": "ACTIVE_CLIENT"})

    response = await tenant.delete(f"/v1/contacts/{contact['id']}")
    assert response.status_code == 200
    erased = response.json()
    assert erased["id"] == contact["id"] and erased["anonymized"] is True
    assert erased["anonymized_at"]

    after = (await tenant.get(f"/v1/contacts/{contact['id']}")).json()
    for field in ("first_name", "last_name", "email", "phone", "notes"):
        assert after[field] is None, field
    assert after["anonymized_at"] == erased["anonymized_at"]
    assert after["stage"] == "ACTIVE_CLIENT" and after["owner_id"] == FULL["owner_id"]

    events = (await tenant.get(f"/v1/contacts/{contact['id']}/events")).json()["data"]
    assert len(events) == 2
    for event in events:
        assert event["title"] == "[redacted]" and event["body"] is None
        assert event["contact_id"] == contact["id"]

    async with runtime.db.transaction(write=False) as connection:
        row = (
            (
                await connection.execute(
                    select(Contact.__table__).where(Contact.__table__.c.id == contact["id"])
                )
            )
            .mappings()
            .one()
        )
        stored = (await connection.execute(select(TimelineEvent.__table__.c.body))).all()
    assert row["email_lower"] is None and row["phone_e164"] is None
    assert all(body is None for (body,) in stored)
    again = await tenant.delete(f"/v1/contacts/{contact['id']}")
    assert again.status_code == 200 and again.json() == erased


async def test_anonymized_contact_is_no_longer_found_by_its_old_details(tenant):
    contact = await create(tenant, **FULL)
    await tenant.delete(f"/v1/contacts/{contact['id']}")
    assert (await tenant.get("/v1/contacts?q=dana")).json()["data"] == []
    assert (await tenant.get("/v1/contacts?q=%2B14155550142")).json()["data"] == []


# --- owner_id names a member of the workspace ---------------------------------------------


async def test_owner_id_must_name_a_member_of_this_workspace(tenant, other_tenant, runtime):
    await add_members(runtime, other_tenant.id, "usr_theirs")
    for owner in ("usr_theirs", "usr_nobody"):  # another workspace's member reads as unknown
        response = await tenant.post("/v1/contacts", json={"first_name": "Ana", "owner_id": owner})
        assert failing_fields(response) == {"owner_id"}, owner
        assert response.json()["error"]["details"]["errors"][0]["message"] == (
            "is not a member of this workspace"
        )
    assert (await tenant.get("/v1/contacts")).json()["data"] == []  # nothing half-written

    mine = await create(tenant, first_name="Ana", owner_id="usr_maya")
    assert mine["owner_id"] == "usr_maya"
    assert (await create(tenant, owner_id=None))["owner_id"] is None

    path = f"/v1/contacts/{mine['id']}"
    for owner in ("usr_theirs", "usr_nobody"):
        response = await tenant.patch(path, json={"stage": "NURTURE", "owner_id": owner})
        assert failing_fields(response) == {"owner_id"}, owner
    unchanged = (await tenant.get(path)).json()
    assert (unchanged["owner_id"], unchanged["stage"]) == ("usr_maya", "LEAD")
    moved = await tenant.patch(path, json={"owner_id": "usr_priya"})
    assert moved.status_code == 200 and moved.json()["owner_id"] == "usr_priya"
    cleared = await tenant.patch(path, json={"owner_id": None})
    assert cleared.status_code == 200 and cleared.json()["owner_id"] is None


async def test_a_stored_owner_id_is_left_as_it_is(tenant, runtime):
    """A value stored before the check (or a member since removed) is not re-checked: the
    contact still takes other changes, and a PATCH sending the same owner_id back."""
    contact = await create(tenant, first_name="Ana")
    table = Contact.__table__
    async with runtime.db.transaction() as connection:
        await connection.execute(
            table.update().where(table.c.id == contact["id"]).values(owner_id="usr_gone")
        )
    path = f"/v1/contacts/{contact['id']}"
    response = await tenant.patch(path, json={"stage": "NURTURE", "owner_id": "usr_gone"})
    assert response.status_code == 200, response.text
    assert (response.json()["stage"], response.json()["owner_id"]) == ("NURTURE", "usr_gone")
