"""POST/GET /v1/exports: the job's shape, its 400s and scopes, and what the files hold
(each line or row exactly the list's item for the credential that asked)."""

import pytest

from tests.exports.support import (
    as_key,
    csv_rows,
    download,
    export,
    listed,
    ndjson,
    run_exports,
)
from tests.leads_support import load
from tests.support import assert_error, failing_fields

PEOPLE = [
    {
        "first_name": "Dana",
        "last_name": "Reyes",
        "email": "dana@example.com",
        "phone": "+1 415 555 0101",
        "stage": "HOT_LEAD",
        "tags": ["buyer", "vip"],
        "notes": 'Wants a garden, "quiet" street;\nsecond line',
    },
    {"first_name": "Eli", "last_name": "Stone", "stage": "NURTURE", "source": "Zillow"},
    {"first_name": "Fay", "email": "fay@example.com", "stage": "HOT_LEAD", "tags": []},
]


@pytest.fixture
async def people(tenant):
    ids = []
    for person in PEOPLE:
        response = await tenant.post("/v1/contacts", json=person)
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    return ids


async def test_create_answers_202_with_a_queued_export(tenant, runtime):
    response = await tenant.post(
        "/v1/exports",
        json={
            "object": "contacts",
            "format": "csv",
            "filters": {"stage": "LEAD"},
            "fields": "email",
        },
    )
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["id"].startswith("exp_")
    assert body["object"] == "contacts" and body["format"] == "csv"
    assert body["status"] == "queued" and body["rows"] == 0
    assert body["filters"] == {"stage": "LEAD"} and body["fields"] == "email"
    assert body["pii_masked"] is False  # the tenant's key holds contacts:read:pii
    assert body["download_url"] is None and body["finished_at"] is None
    assert body["created_at"].endswith("Z") and body["expires_at"] is None
    again = await tenant.get(f"/v1/exports/{body['id']}")
    assert again.status_code == 200
    assert {k: v for k, v in again.json().items()} == body
    listed_exports = (await tenant.get("/v1/exports")).json()["data"]
    assert [item["id"] for item in listed_exports] == [body["id"]]


async def test_format_defaults_to_ndjson(tenant):
    response = await tenant.post("/v1/exports", json={"object": "deals"})
    assert response.status_code == 202, response.text
    assert response.json()["format"] == "ndjson"


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"object": "people"}, {"object"}),
        ({"object": "contacts", "format": "xlsx"}, {"format"}),
        ({}, {"object"}),
        ({"object": "contacts", "filters": {"colour": "red"}}, {"filters.colour"}),
        ({"object": "contacts", "filters": {"stage": "WARM"}}, {"filters.stage"}),
        ({"object": "contacts", "filters": {"tag": "x" * 41}}, {"filters.tag"}),
        ({"object": "contacts", "filters": ["stage"]}, {"filters"}),
        ({"object": "contacts", "fields": "email,shoe_size"}, {"fields"}),
        (
            {"object": "deals", "filters": {"status": "gone", "stage": "x"}, "fields": "nope"},
            {"filters.status", "filters.stage", "fields"},
        ),
        ({"object": "tasks", "filters": {"due_before": "soon"}}, {"filters.due_before"}),
        ({"object": "contacts", "extra": 1}, {"extra"}),
        (
            {"object": "contacts", "filters": {f"f{i}": 1 for i in range(21)}},
            {f"filters.f{i}" for i in range(21)},
        ),
        ({"object": "contacts", "filters": {"stage": {"$ne": "LEAD"}}}, {"filters.stage"}),
        ({"object": "contacts", "filters": {"q": "a\u0000b"}}, {"filters.q"}),
        ({"object": "contacts", "fields": "x" * 1001}, {"fields"}),
    ],
)
async def test_bad_requests_name_each_failing_field(tenant, body, fields):
    response = await tenant.post("/v1/exports", json=body)
    assert failing_fields(response) == fields
    assert (await tenant.get("/v1/exports")).json()["data"] == []  # nothing was made


async def test_the_lists_read_scope_is_required(tenant, runtime, make):
    leads_only = await as_key(runtime, tenant, ["leads:read"])
    refused = await leads_only.post("/v1/exports", json={"object": "contacts"})
    assert assert_error(refused, 403, "insufficient_scope")["details"] == {
        "missing_scope": "contacts:read"
    }
    tasks = await leads_only.post("/v1/exports", json={"object": "tasks"})
    assert_error(tasks, 403, "insufficient_scope")
    leads = await leads_only.post("/v1/exports", json={"object": "leads"})
    assert leads.status_code == 202, leads.text
    contacts = await tenant.post("/v1/exports", json={"object": "contacts"})
    # Another credential of the workspace sees only the exports of lists it may read.
    assert_error(
        await leads_only.get(f"/v1/exports/{contacts.json()['id']}"), 403, "insufficient_scope"
    )
    seen = (await leads_only.get("/v1/exports")).json()["data"]
    assert [item["id"] for item in seen] == [leads.json()["id"]]
    both = {item["id"] for item in (await tenant.get("/v1/exports")).json()["data"]}
    assert both == {leads.json()["id"], contacts.json()["id"]}


async def test_an_unmasked_file_is_not_shown_to_a_masked_credential(tenant, runtime, people):
    masked = await as_key(runtime, tenant, ["contacts:read", "deals:read"])
    unmasked = await export(tenant, runtime, object="contacts")
    assert_error(await masked.get(f"/v1/exports/{unmasked['id']}"), 403, "insufficient_scope")
    # Of every list: a deal's custom text is masked too (tests/exports/test_export_masking.py).
    deals = await export(tenant, runtime, object="deals")
    assert_error(await masked.get(f"/v1/exports/{deals['id']}"), 403, "insufficient_scope")
    own = await export(masked, runtime, object="contacts")
    assert own["pii_masked"] is True
    seen = {item["id"] for item in (await masked.get("/v1/exports")).json()["data"]}
    assert seen == {own["id"]}


@pytest.mark.parametrize("scopes", [["contacts:read"], ["contacts:read:pii"]])
async def test_ndjson_lines_are_the_lists_items_for_the_credential(
    tenant, runtime, client, people, scopes
):
    reader = await as_key(runtime, tenant, scopes)
    exported = await export(reader, runtime, object="contacts", format="ndjson")
    expected = await listed(reader, "/v1/contacts")
    assert exported["rows"] == len(PEOPLE)
    assert exported["pii_masked"] == ("contacts:read:pii" not in scopes)
    response = await download(client, exported)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-ndjson"
    assert ndjson(response) == expected
    if scopes == ["contacts:read"]:
        assert all(line["pii_masked"] for line in ndjson(response))
        assert "dana@example.com" not in response.text


async def test_csv_rows_are_the_lists_items(tenant, runtime, client, people):
    exported = await export(tenant, runtime, object="contacts", format="csv")
    response = await download(client, exported)
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert not response.content.startswith(b"\xef\xbb\xbf")  # no byte order mark
    assert b"\r\n" in response.content
    header, *rows = csv_rows(response)
    expected = await listed(tenant, "/v1/contacts")
    assert header == list(expected[0])
    assert len(rows) == len(expected)
    for row, item in zip(rows, expected, strict=True):
        cells = dict(zip(header, row, strict=True))
        assert cells["id"] == item["id"]
        assert cells["first_name"] == item["first_name"]
        assert cells["notes"] == (item["notes"] or "")
        assert cells["email"] == (item["email"] or "")
        # A phone's leading + is neutralised like any formula start.
        assert cells["phone"] == ("'" + item["phone"] if item["phone"] else "")
        assert cells["pii_masked"] == "false"
        assert cells["anonymized_at"] == ""
        assert cells["tags"] in ("[]", '["buyer","vip"]')
        assert cells["created_at"] == item["created_at"]


async def test_fields_narrow_lines_and_columns(tenant, runtime, client, people):
    lines = ndjson(
        await download(
            client, await export(tenant, runtime, object="contacts", fields="email, tags")
        )
    )
    assert [set(line) for line in lines] == [{"id", "pii_masked", "email", "tags"}] * 3
    assert lines == await listed(tenant, "/v1/contacts", fields="email,tags")
    table = csv_rows(
        await download(
            client,
            await export(tenant, runtime, object="contacts", format="csv", fields="tags,email"),
        )
    )
    assert table[0] == ["id", "email", "tags", "pii_masked"]  # the item's order
    assert len(table) == 4


async def test_filters_are_the_lists(tenant, runtime, client, people):
    for filters in ({"stage": "HOT_LEAD"}, {"tag": "vip"}, {"q": "stone"}, {"source": "Zillow"}):
        exported = await export(tenant, runtime, object="contacts", filters=filters)
        lines = ndjson(await download(client, exported))
        assert lines == await listed(tenant, "/v1/contacts", **filters), filters
        assert lines and exported["rows"] == len(lines)


async def test_a_search_reads_a_number_in_the_workspaces_phone_region(
    tenant, runtime, client, clock
):
    """A `q` that is a number written without its country code is read in the workspace's
    default_phone_region, as the list reads it, on the plain walk and on updated_after's."""
    await load(runtime, tenant.id, {"workspace_settings": [{"default_phone_region": "GB"}]})
    london = (await tenant.post("/v1/contacts", json={"phone": "020 7946 0958"})).json()
    await tenant.post("/v1/contacts", json={"phone": "+1 415 555 0142"})
    clock.advance(seconds=runtime.settings.sync_settle_seconds + 1)  # both changes settled
    for filters in (
        {"q": "020 7946 0958"},
        {"q": "020 7946 0958", "updated_after": "2000-01-01T00:00:00Z"},
    ):
        exported = await export(tenant, runtime, object="contacts", filters=filters)
        lines = ndjson(await download(client, exported))
        assert [line["id"] for line in lines] == [london["id"]], filters
        assert lines == await listed(tenant, "/v1/contacts", **filters), filters


async def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(tenant, runtime, client):
    hostile = {
        "first_name": '=HYPERLINK("http://evil.example","x")',
        "last_name": "-2+3",
        "source": "@SUM(A1)",
        "notes": "\tcmd",
        "tags": ["+1", "=x"],
    }
    created = await tenant.post("/v1/contacts", json=hostile)
    assert created.status_code == 201, created.text
    carriage = await tenant.post("/v1/contacts", json={"first_name": "\rcr", "notes": "plain =1"})
    assert carriage.status_code == 201, carriage.text
    exported = await export(tenant, runtime, object="contacts", format="csv")
    header, *rows = csv_rows(await download(client, exported))
    cells = [dict(zip(header, row, strict=True)) for row in rows]
    by_id = {cell["id"]: cell for cell in cells}
    evil = by_id[created.json()["id"]]
    assert evil["first_name"] == "'" + hostile["first_name"]
    assert evil["last_name"] == "'-2+3"
    assert evil["source"] == "'@SUM(A1)"
    assert evil["notes"] == "'\tcmd"
    assert evil["tags"] == '["+1","=x"]'  # JSON text starts with [: nothing to run
    plain = by_id[carriage.json()["id"]]
    assert plain["notes"] == "plain =1"  # only a cell's first character counts
    # The NDJSON file keeps values exactly.
    lines = ndjson(await download(client, await export(tenant, runtime, object="contacts")))
    assert {line["last_name"] for line in lines} >= {"-2+3"}


async def test_every_list_exports_what_it_lists(tenant, runtime, client):
    from tests import automations_support, calendar_support, crm_support, leads_support

    await crm_support.create_deal(tenant)
    await leads_support.create_lead_for_routes(tenant)
    await automations_support.create_task_for_routes(tenant)
    await calendar_support.create_appointment_for_routes(tenant)
    message = await tenant.post(
        "/v1/messages",
        json={"channel": "email", "to": "x@example.com", "subject": "s", "body": "b"},
    )
    assert message.status_code == 201, message.text
    masked = await as_key(
        runtime, tenant, ["leads:read", "deals:read", "messages:read", "appointments:read"]
    )
    for reader in (tenant, masked):
        for name in ("leads", "deals", "messages", "tasks", "appointments"):
            exported = await export(reader, runtime, object=name)
            lines = ndjson(await download(client, exported))
            expected = await listed(reader, f"/v1/{name}")
            assert lines == expected and lines, name
            as_csv = await export(reader, runtime, object=name, format="csv")
            header, *rows = csv_rows(await download(client, as_csv))
            assert header == list(expected[0]) and len(rows) == len(expected), name


async def test_an_empty_list_gives_an_empty_file(tenant, runtime, client):
    exported = await export(tenant, runtime, object="deals", format="csv", fields="title")
    assert exported["rows"] == 0
    assert csv_rows(await download(client, exported)) == [["id", "title"]]
    empty = await export(tenant, runtime, object="deals")
    assert (await download(client, empty)).content == b""


async def test_large_exports_cross_batches(tenant, runtime, client, monkeypatch):
    from homebase.exports import jobs

    monkeypatch.setattr(jobs, "BATCH", 7)
    for index in range(23):
        response = await tenant.post("/v1/contacts", json={"first_name": f"P{index:02d}"})
        assert response.status_code == 201
    exported = await export(tenant, runtime, object="contacts")
    assert exported["rows"] == 23
    assert ndjson(await download(client, exported)) == await listed(tenant, "/v1/contacts")
    await run_exports(runtime)  # nothing more to claim
