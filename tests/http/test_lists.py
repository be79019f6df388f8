"""The spec's list rules on GET /v1/contacts and a contact's events and notes: the limit,
walking every page, cursors that restart instead of failing, and the fields allow-list."""

import pytest

from homebase.auth.scopes import ALL_SCOPES, Scope
from homebase.kit.keys import Keyring
from homebase.kit.pagination import decode_cursor, encode_cursor, list_key
from tests.support import Tenant, assert_error, failing_fields, make_key

LISTS = ["contacts", "events", "notes"]
STAGES = ["HOT_LEAD", "NURTURE", "ACTIVE_CLIENT", "PAST_CLIENT"]


@pytest.fixture
def settings_overrides() -> dict:
    # These tests make more requests than a real key's 120 a minute.
    return {"rate_limit_api_key_per_min": 100_000}


async def create_contacts(tenant, count: int, **values) -> list[str]:
    """Ids of the created contacts, oldest first."""
    ids = []
    for index in range(count):
        response = await tenant.post("/v1/contacts", json={"first_name": f"C{index}", **values})
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    return ids


async def add_notes(tenant, contact_id: str, count: int) -> list[str]:
    ids = []
    for index in range(count):
        response = await tenant.post(
            f"/v1/contacts/{contact_id}/notes", json={"body": f"note {index}"}
        )
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    return ids


async def add_events(tenant, contact_id: str, count: int) -> list[str]:
    """Alternates notes and stage changes, so the timeline holds more than notes."""
    ids = []
    for index in range(count):
        if index % 2:
            ids += await add_notes(tenant, contact_id, 1)
            continue
        stage = STAGES[(index // 2) % len(STAGES)]
        response = await tenant.patch(f"/v1/contacts/{contact_id}", json={"stage": stage})
        assert response.status_code == 200, response.text
        timeline = await tenant.get(f"/v1/contacts/{contact_id}/events", params={"limit": 1})
        ids.append(timeline.json()["data"][0]["id"])
    return ids


async def seed(tenant, kind: str, count: int) -> tuple[str, list[str]]:
    """(list url, ids newest first) for a list of `count` rows."""
    if kind == "contacts":
        ids = await create_contacts(tenant, count)
        return "/v1/contacts", ids[::-1]
    [contact_id] = await create_contacts(tenant, 1)
    make = add_notes if kind == "notes" else add_events
    ids = await make(tenant, contact_id, count)
    return f"/v1/contacts/{contact_id}/{kind}", ids[::-1]


async def fetch(tenant, url: str, **params) -> dict:
    response = await tenant.get(url, params=params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"data", "next_cursor", "has_more"}, body
    assert body["has_more"] == (body["next_cursor"] is not None), body
    return body


async def walk(tenant, url: str, limit: int, **params) -> list[list[dict]]:
    pages, cursor = [], None
    for _ in range(500):
        query = {"limit": limit, **params, **({"cursor": cursor} if cursor else {})}
        body = await fetch(tenant, url, **query)
        pages.append(body["data"])
        if not body["has_more"]:
            assert body["next_cursor"] is None
            return pages
        cursor = body["next_cursor"]
    raise AssertionError(f"the walk of {url} did not end")


def ids_of(rows: list[dict]) -> list[str]:
    return [row["id"] for row in rows]


# limit


async def test_limit_defaults_to_50(tenant):
    ids = await create_contacts(tenant, 51)
    body = await fetch(tenant, "/v1/contacts")
    assert ids_of(body["data"]) == ids[::-1][:50]
    assert body["has_more"] is True


@pytest.mark.parametrize("kind", LISTS)
async def test_limit_of_1_and_200_are_accepted(tenant, kind):
    url, ids = await seed(tenant, kind, 3)
    one = await fetch(tenant, url, limit=1)
    assert ids_of(one["data"]) == ids[:1] and one["has_more"] is True
    everything = await fetch(tenant, url, limit=200)
    assert ids_of(everything["data"]) == ids
    assert everything["has_more"] is False and everything["next_cursor"] is None


@pytest.mark.parametrize("kind", LISTS)
async def test_out_of_range_limit_is_400_naming_limit(tenant, kind):
    url, _ = await seed(tenant, kind, 1)
    for limit in ("0", "201", "abc", "-1", "1.5", ""):
        response = await tenant.get(url, params={"limit": limit})
        assert failing_fields(response) == {"limit"}, limit
        error = assert_error(response, 400, "validation_failed")
        assert error["details"]["errors"][0]["in"] == "query"
        assert "limit" in error["message"]


# walking


@pytest.mark.parametrize("kind", LISTS)
async def test_a_walk_returns_every_row_once_newest_first(tenant, kind):
    url, ids = await seed(tenant, kind, 7)
    for limit in (1, 2, 3, 6, 7, 8):
        pages = await walk(tenant, url, limit)
        walked = [row_id for page in pages for row_id in ids_of(page)]
        assert walked == ids, f"limit={limit}"
        assert walked == sorted(walked, reverse=True)
        assert all(len(page) == limit for page in pages[:-1])
        assert 1 <= len(pages[-1]) <= limit
        # Walking again gives the same pages: the order is stable.
        assert await walk(tenant, url, limit) == pages


async def test_an_exact_multiple_ends_with_has_more_false(tenant):
    ids = await create_contacts(tenant, 4)
    first = await fetch(tenant, "/v1/contacts", limit=2)
    assert first["has_more"] is True
    last = await fetch(tenant, "/v1/contacts", limit=2, cursor=first["next_cursor"])
    assert ids_of(last["data"]) == ids[1::-1]
    assert last["has_more"] is False and last["next_cursor"] is None


async def test_an_empty_list_is_one_empty_page(tenant):
    assert await fetch(tenant, "/v1/contacts") == {
        "data": [],
        "next_cursor": None,
        "has_more": False,
    }


async def test_a_filtered_walk_returns_only_matching_rows(tenant):
    hot = await create_contacts(tenant, 3, stage="HOT_LEAD")
    await create_contacts(tenant, 3, stage="SPHERE")
    pages = await walk(tenant, "/v1/contacts", 2, stage="HOT_LEAD")
    assert [row_id for page in pages for row_id in ids_of(page)] == hot[::-1]


# cursors that restart


def flip_a_character(cursor: str) -> str:
    # The middle, not the end: base64's last character may carry only padding bits.
    index = len(cursor) // 2
    replacement = "A" if cursor[index] != "A" else "B"
    return cursor[:index] + replacement + cursor[index + 1 :]


async def first_page_cursor(tenant, url: str, **params) -> str:
    body = await fetch(tenant, url, limit=2, **params)
    assert body["next_cursor"], body
    return body["next_cursor"]


async def assert_restarts(tenant, url: str, cursor: str, ids: list[str]) -> None:
    body = await fetch(tenant, url, limit=2, cursor=cursor)
    assert ids_of(body["data"]) == ids[:2], f"cursor {cursor!r} did not restart the walk"


MALFORMED_CURSORS = ["garbage", "!!!!", "AAAA", "x" * 40, "   ", "e30", "%00", "null", "x" * 2000]


@pytest.mark.parametrize("kind", LISTS)
async def test_a_malformed_cursor_restarts(tenant, kind):
    url, ids = await seed(tenant, kind, 5)
    for cursor in MALFORMED_CURSORS:
        await assert_restarts(tenant, url, cursor, ids)


@pytest.mark.parametrize("kind", LISTS)
async def test_an_altered_cursor_restarts(tenant, kind):
    url, ids = await seed(tenant, kind, 5)
    cursor = await first_page_cursor(tenant, url)
    second = await fetch(tenant, url, limit=2, cursor=cursor)
    assert ids_of(second["data"]) == ids[2:4]
    await assert_restarts(tenant, url, flip_a_character(cursor), ids)
    await assert_restarts(tenant, url, cursor[:-3], ids)
    await assert_restarts(tenant, url, cursor + "AAAA", ids)


async def test_a_filtered_walks_cursor_restarts_the_unfiltered_list(tenant):
    # Interleaved, so continuing after a foreign cursor would give other rows than restarting.
    hot, sphere = [], []
    for _ in range(3):
        hot += await create_contacts(tenant, 1, stage="HOT_LEAD")
        sphere += await create_contacts(tenant, 1, stage="SPHERE")
    everyone = [sphere[2], hot[2], sphere[1], hot[1], sphere[0], hot[0]]
    assert ids_of((await fetch(tenant, "/v1/contacts", limit=200))["data"]) == everyone

    cursor = await first_page_cursor(tenant, "/v1/contacts", stage="HOT_LEAD")
    continued = await fetch(tenant, "/v1/contacts", limit=2, stage="HOT_LEAD", cursor=cursor)
    assert ids_of(continued["data"]) == [hot[0]]
    await assert_restarts(tenant, "/v1/contacts", cursor, everyone)
    restarted = await fetch(tenant, "/v1/contacts", limit=2, stage="SPHERE", cursor=cursor)
    assert ids_of(restarted["data"]) == [sphere[2], sphere[1]]
    # And the other way round.
    unfiltered = await first_page_cursor(tenant, "/v1/contacts")
    restarted = await fetch(tenant, "/v1/contacts", limit=2, stage="HOT_LEAD", cursor=unfiltered)
    assert ids_of(restarted["data"]) == [hot[2], hot[1]]


def test_a_cursor_is_bound_to_its_list():
    key = list_key("wsp_a", "/v1/contacts", {"stage": "SPHERE"})
    cursor = encode_cursor(Keyring("secret"), key, "con_x")
    assert decode_cursor(Keyring("secret"), key, cursor) == "con_x"
    for other in (
        list_key("wsp_b", "/v1/contacts", {"stage": "SPHERE"}),
        list_key("wsp_a", "/v1/contacts", {}),
        list_key("wsp_a", "/v1/contacts", {"stage": "LEAD"}),
        list_key("wsp_a", "/v1/contacts/con_x/notes", {"stage": "SPHERE"}),
    ):
        assert decode_cursor(Keyring("secret"), other, cursor) is None
    assert decode_cursor(Keyring("another secret"), key, cursor) is None


async def test_a_cursor_from_another_list_restarts(tenant):
    contacts = await create_contacts(tenant, 4)
    owner = contacts[0]
    notes = (await add_notes(tenant, owner, 3))[::-1]
    other_notes = (await add_notes(tenant, contacts[1], 3))[::-1]
    notes_cursor = await first_page_cursor(tenant, f"/v1/contacts/{owner}/notes")
    contacts_cursor = await first_page_cursor(tenant, "/v1/contacts")
    events_cursor = await first_page_cursor(tenant, f"/v1/contacts/{owner}/events")

    await assert_restarts(tenant, "/v1/contacts", notes_cursor, contacts[::-1])
    await assert_restarts(tenant, f"/v1/contacts/{owner}/notes", contacts_cursor, notes)
    await assert_restarts(tenant, f"/v1/contacts/{owner}/notes", events_cursor, notes)
    # Another contact's notes are another list too.
    await assert_restarts(tenant, f"/v1/contacts/{contacts[1]}/notes", notes_cursor, other_notes)


@pytest.mark.parametrize("kind", LISTS)
async def test_a_cursor_from_another_workspace_restarts(tenant, other_tenant, kind):
    url, _ = await seed(tenant, kind, 5)
    cursor = await first_page_cursor(tenant, url)
    if kind == "contacts":
        _, theirs = await seed(other_tenant, kind, 5)
        await assert_restarts(other_tenant, url, cursor, theirs)
    else:
        # The same path is another workspace's contact: unknown there whatever the cursor.
        response = await other_tenant.get(url, params={"cursor": cursor})
        assert_error(response, 404, "not_found")
        other_url, theirs = await seed(other_tenant, kind, 5)
        await assert_restarts(other_tenant, other_url, cursor, theirs)


# fields


async def test_fields_narrows_a_record_and_keeps_id_and_pii_masked(tenant):
    response = await tenant.post(
        "/v1/contacts",
        json={"first_name": "Ana", "stage": "SPHERE"},
        params={"fields": "first_name"},
    )
    assert response.status_code == 201
    created = response.json()
    assert created == {"id": created["id"], "first_name": "Ana", "pii_masked": False}
    response = await tenant.get(
        f"/v1/contacts/{created['id']}", params={"fields": " stage , tags,,"}
    )
    assert response.json() == {
        "id": created["id"],
        "stage": "SPHERE",
        "tags": [],
        "pii_masked": False,
    }
    response = await tenant.patch(
        f"/v1/contacts/{created['id']}", json={"last_name": "Ruiz"}, params={"fields": "id"}
    )
    assert response.json() == {"id": created["id"], "pii_masked": False}


async def test_fields_narrows_every_list_item(tenant):
    ids = await create_contacts(tenant, 3)
    body = await fetch(tenant, "/v1/contacts", fields="first_name", limit=2)
    assert body["data"] == [
        {"id": ids[2], "first_name": "C2", "pii_masked": False},
        {"id": ids[1], "first_name": "C1", "pii_masked": False},
    ]
    assert body["has_more"] is True and body["next_cursor"]
    [note] = await add_notes(tenant, ids[0], 1)
    for kind in ("notes", "events"):
        page = await fetch(tenant, f"/v1/contacts/{ids[0]}/{kind}", fields="body")
        assert page["data"] == [{"id": note, "body": "note 0"}]


async def test_empty_fields_returns_everything(tenant):
    [contact_id] = await create_contacts(tenant, 1)
    full = (await tenant.get(f"/v1/contacts/{contact_id}")).json()
    assert (await tenant.get(f"/v1/contacts/{contact_id}", params={"fields": ""})).json() == full
    assert "stage" in full and "created_at" in full


async def test_fields_never_unmasks(runtime, client, tenant):
    created = await tenant.post(
        "/v1/contacts",
        json={"first_name": "Pat", "phone": "+1 415 555 0142", "email": "pat.lee@example.com"},
    )
    contact_id = created.json()["id"]
    scopes = [scope for scope in ALL_SCOPES if scope != Scope.contacts_read_pii.value]
    key_id, key = await make_key(runtime, tenant.id, scopes)
    masked = Tenant(
        id=tenant.id,
        key=key,
        key_id=key_id,
        client=client,
        headers={"Authorization": f"token {key}"},
    )

    response = await masked.get(f"/v1/contacts/{contact_id}", params={"fields": "phone,email"})
    assert response.json() == {
        "id": contact_id,
        "phone": "+* *** *** 0142",
        "email": "p***@example.com",
        "pii_masked": True,
    }
    page = await fetch(masked, "/v1/contacts", fields="phone,email,pii_masked")
    assert page["data"] == [response.json()]
    full = await tenant.get(f"/v1/contacts/{contact_id}", params={"fields": "phone,email"})
    assert full.json() == {
        "id": contact_id,
        "phone": "+1 415 555 0142",
        "email": "pat.lee@example.com",
        "pii_masked": False,
    }


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/v1/contacts", "password"),
        ("/v1/contacts/{id}", "workspace_id"),
        ("/v1/contacts/{id}/notes", "stage"),
        ("/v1/contacts/{id}/events", "nope"),
    ],
)
async def test_an_unknown_field_is_400_naming_its_position(tenant, path, name):
    [contact_id] = await create_contacts(tenant, 1)
    response = await tenant.get(path.format(id=contact_id), params={"fields": f"id,{name}"})
    assert failing_fields(response) == {"fields"}
    error = assert_error(response, 400, "validation_failed")
    assert error["message"] == "fields: name 2 of the list is not a member of the item"
    assert [item["message"] for item in error["details"]["errors"]] == [
        "name 2 of the list is not a member of the item"
    ]
    assert name not in response.text  # an error repeats no value that was sent


async def test_an_unknown_field_on_a_write_is_400_and_writes_nothing(tenant):
    response = await tenant.post(
        "/v1/contacts", json={"first_name": "Nobody"}, params={"fields": "first_name,bogus"}
    )
    assert "name 2 of the list" in assert_error(response, 400, "validation_failed")["message"]
    assert (await fetch(tenant, "/v1/contacts"))["data"] == []
