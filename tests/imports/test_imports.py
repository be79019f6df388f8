"""POST /v1/imports and the worker's import job, on SQLite and PostgreSQL."""

from datetime import timedelta

import pytest
from sqlalchemy.exc import IntegrityError

from homebase.consent.service import valid_consent
from homebase.db.tenancy import TenantSession
from homebase.imports import jobs
from homebase.imports import rows as import_rows
from homebase.retention import service as retention
from tests.imports_support import (
    all_errors,
    contacts_of,
    drive,
    event_types,
    job,
    start,
    stored_import,
)
from tests.leads_support import load_team, outbox
from tests.support import add_members, assert_error, failing_fields, make_key

PEOPLE = [
    {"first_name": "Dana", "email": "Dana.Reyes@Example.com", "phone": "+1 415 555 0142"},
    {"first_name": "Sam", "email": "sam@example.com", "tags": ["buyer", "vip"]},
    {"first_name": "Lee", "phone": "(415) 555-0199", "stage": "HOT_LEAD"},
]


async def test_an_import_is_accepted_as_a_queued_job(tenant):
    response = await tenant.post("/v1/imports", json={"object": "contacts", "rows": PEOPLE})
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["id"].startswith("imp_")
    assert body["object"] == "contacts" and body["status"] == "queued"
    assert body["match_on"] == ["email", "phone"] and body["skip_routing"] is False
    assert body["counts"] == {
        "rows": 3,
        "created": 0,
        "updated": 0,
        "unchanged": 0,
        "failed": 0,
        "warnings": 0,
        "unmatchable": 0,
    }
    assert body["progress"] == 0 and body["started_at"] is None and body["finished_at"] is None
    assert await job(tenant, body["id"]) == body
    listed = (await tenant.get("/v1/imports")).json()
    assert [item["id"] for item in listed["data"]] == [body["id"]]


async def test_the_import_is_one_request_against_the_rate_limit(tenant):
    before = await tenant.get("/v1/ping")
    response = await tenant.post("/v1/imports", json={"object": "contacts", "rows": PEOPLE * 100})
    assert response.status_code == 202
    remaining = int(before.headers["X-RateLimit-Remaining"])
    assert int(response.headers["X-RateLimit-Remaining"]) == remaining - 1


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"object": "contacts", "rows": [{}] * 5001}, {"rows"}),
        ({"object": "contacts", "rows": []}, {"rows"}),
        ({"object": "contacts"}, {"rows"}),
        ({"rows": [{}]}, {"object"}),
        ({"object": "deals", "rows": [{}]}, {"object"}),
        ({"object": "contacts", "rows": [{}, "x"]}, {"rows.1"}),
        ({"object": "contacts", "rows": [{}], "match_on": ["nom"]}, {"match_on.0"}),
        ({"object": "contacts", "rows": [{}], "value_map": {"city": {}}}, {"value_map.city.[key]"}),
        ({"object": "contacts", "rows": [{}], "on_invalid_cell": "drop"}, {"on_invalid_cell"}),
        ({"object": "contacts", "rows": [{}], "dry_run": "yes"}, {"dry_run"}),
        ({"object": "contacts", "rows": [{}], "match_on": ["email", "email"]}, {"match_on"}),
        ({"object": "contacts", "rows": [{}], "skip_routing": "yes"}, {"skip_routing"}),
        ({"object": "contacts", "rows": [{}], "skip_routing": True}, {"skip_routing"}),
        ({"object": "leads", "rows": [{}], "match_on": ["phone"]}, {"match_on"}),
        ({"object": "contacts", "rows": [{}], "extra": 1}, {"extra"}),
    ],
)
async def test_a_bad_envelope_is_400_naming_its_fields(runtime, tenant, body, fields):
    assert failing_fields(await tenant.post("/v1/imports", json=body)) == fields
    assert await drive(runtime) == 0  # nothing was queued


async def test_a_rows_member_name_is_bounded_as_the_document_says(tenant):
    response = await tenant.post(
        "/v1/imports", json={"object": "contacts", "rows": [{"k" * 129: 1}]}
    )
    (field,) = failing_fields(response)
    assert field.startswith("rows.0.")
    ok = await tenant.post("/v1/imports", json={"object": "contacts", "rows": [{"k" * 128: 1}]})
    assert ok.status_code == 202


async def test_5000_rows_are_accepted(tenant):
    rows = [{"first_name": f"P{index}"} for index in range(5000)]
    response = await tenant.post("/v1/imports", json={"object": "contacts", "rows": rows})
    assert response.status_code == 202
    assert response.json()["counts"]["rows"] == 5000


async def test_scopes(make):
    contacts_only = await make(["contacts:write"])
    assert (
        await contacts_only.post("/v1/imports", json={"object": "contacts", "rows": PEOPLE})
    ).status_code == 202
    refused = await contacts_only.post(
        "/v1/imports", json={"object": "leads", "rows": [{"phone": "+14155550142"}]}
    )
    assert assert_error(refused, 403, "insufficient_scope")["details"] == {
        "missing_scope": "leads:write"
    }
    reader = await make(["contacts:read", "leads:read"])
    refused = await reader.post("/v1/imports", json={"object": "contacts", "rows": PEOPLE})
    assert_error(refused, 403, "insufficient_scope")
    leads_only = await make(["leads:write"], name="Leads Realty")
    made = await start(leads_only, {"object": "leads", "rows": [{"phone": "+14155550142"}]})
    assert (await leads_only.get(f"/v1/imports/{made['id']}")).status_code == 200
    nothing = await make(["deals:read"], name="Deals Realty")
    assert_error(await nothing.get("/v1/imports"), 403, "insufficient_scope")


async def test_a_contacts_import_reads_only_with_contacts_read(make):
    both = await make(["contacts:write", "leads:read"])
    made = await start(both, {"object": "contacts", "rows": PEOPLE})
    # leads:read alone does not show a contacts import (contacts:write implies read).
    assert (await both.get(f"/v1/imports/{made['id']}")).status_code == 200


async def test_the_worker_writes_every_row_and_completes(runtime, tenant):
    made = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    assert await drive(runtime) == 1
    done = await job(tenant, made["id"])
    assert done["status"] == "completed" and done["progress"] == 1
    assert done["counts"] == {
        "rows": 3,
        "created": 3,
        "updated": 0,
        "unchanged": 0,
        "failed": 0,
        "warnings": 0,
        "unmatchable": 0,
    }
    assert done["started_at"] is not None and done["finished_at"] >= done["started_at"]
    stored = await contacts_of(runtime, tenant.id)
    assert [row["first_name"] for row in stored] == ["Dana", "Sam", "Lee"]
    assert stored[0]["email_lower"] == "dana.reyes@example.com"
    assert stored[0]["phone_e164"] == "+14155550142" and stored[2]["phone_e164"] == "+14155550199"
    assert (stored[1]["tags"], stored[2]["stage"]) == (["buyer", "vip"], "HOT_LEAD")
    # The rows are not kept once the import is finished.
    assert (await stored_import(runtime, made["id"]))["payload"] is None
    # Each row's events, as POST /v1/contacts emits them.
    assert await event_types(runtime, tenant.id) == {"contact.created": 3, "contact.tag_added": 2}
    created = [row for row in await outbox(runtime, tenant.id) if row["type"] == "contact.created"]
    assert [row["data"]["first_name"] for row in created] == ["Dana", "Sam", "Lee"]
    assert created[0]["data"]["phone"] == "+* *** *** 0142"  # as a delivery carries it


async def test_a_batch_of_several_inserts_writes_its_rows_and_events_in_row_order(runtime, tenant):
    """On SQLite a batch's new contacts and events go 100 to an INSERT (WRITE_ROWS); a
    row that changes a contact the same batch made writes it first. What is stored is
    what one INSERT wrote: every row, every event, in row order."""
    most = import_rows.WRITE_ROWS["sqlite"]
    total = 2 * most + 30
    people = [
        {"first_name": f"P{index}", "email": f"p{index}@example.com"} for index in range(total)
    ]
    updated_at = most + 10
    people.insert(updated_at, {"email": "p5@example.com", "stage": "HOT_LEAD"})
    made = await start(tenant, {"object": "contacts", "rows": people})
    assert await drive(runtime) == 1
    done = await job(tenant, made["id"])
    assert (done["status"], done["counts"]["created"], done["counts"]["updated"]) == (
        "completed",
        total,
        1,
    )
    stored = await contacts_of(runtime, tenant.id)
    assert [row["first_name"] for row in stored] == [f"P{index}" for index in range(total)]
    assert stored[5]["stage"] == "HOT_LEAD"
    events = [
        (row["type"], row["data"].get("first_name")) for row in await outbox(runtime, tenant.id)
    ]
    assert events[:updated_at] == [("contact.created", f"P{index}") for index in range(updated_at)]
    assert events[updated_at : updated_at + 2] == [
        ("contact.updated", "P5"),
        ("contact.stage_changed", None),
    ]
    later = [event for event in events[updated_at + 1 :] if event[0] == "contact.created"]
    assert later == [("contact.created", f"P{index}") for index in range(updated_at, total)]


async def test_imported_contacts_are_found_by_search_and_by_tag(runtime, tenant):
    """A batch's new contacts go many to an INSERT (on SQLite, multi-row INSERTs:
    db/driver.py): the contacts table's triggers still index every one of them for the
    search and the tag filter."""
    total = 150
    people = [
        {"first_name": "Quill", "last_name": f"Marrow{index:03d}", "tags": [f"t{index % 3}"]}
        for index in range(total)
    ]
    made = await start(tenant, {"object": "contacts", "rows": people})
    assert await drive(runtime) == 1
    assert (await job(tenant, made["id"]))["counts"]["created"] == total

    async def last_names(**params) -> list[str]:
        found = await tenant.get("/v1/contacts", params={**params, "limit": 100})
        assert found.status_code == 200, found.text
        return sorted(contact["last_name"] for contact in found.json()["data"])

    assert await last_names(q="marrow1") == [f"Marrow{index}" for index in range(100, total)]
    assert await last_names(tag="t2") == [
        f"Marrow{index:03d}" for index in range(total) if index % 3 == 2
    ]


BAD_ROWS = [
    {"first_name": "ok"},
    {"email": "not-an-email", "first_name": "x" * 81},
    {"stage": "NOPE", "nickname": "Al"},
    {"owner_id": "usr_nobody"},
    {"tags": ["a", ""], "phone": 5},
    {"first_name": "ok too", "owner_id": "usr_member"},
]


async def test_refused_rows_carry_the_single_creates_messages(runtime, tenant):
    await add_members(runtime, tenant.id, "usr_member")
    made = await start(tenant, {"object": "contacts", "rows": BAD_ROWS})
    await drive(runtime)
    done = await job(tenant, made["id"])
    assert done["counts"] == {
        "rows": 6,
        "created": 2,
        "updated": 0,
        "unchanged": 0,
        "failed": 4,
        "warnings": 0,
        "unmatchable": 2,
    }
    errors = await all_errors(tenant, made["id"], limit=1)
    assert [item["index"] for item in errors] == [1, 2, 3, 4]
    for item in errors:
        single = await tenant.post("/v1/contacts", json=BAD_ROWS[item["index"]])
        expected = assert_error(single, 400, "validation_failed")["details"]["errors"]
        assert item["errors"] == [
            {"field": error["field"], "message": error["message"]} for error in expected
        ]
    assert len(await contacts_of(runtime, tenant.id)) == 2


async def test_matching_updates_instead_of_duplicating(runtime, tenant):
    first = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    await drive(runtime)
    again = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    await drive(runtime)
    assert (await job(tenant, again["id"]))["counts"] == {
        "rows": 3,
        "created": 0,
        "updated": 0,
        "unchanged": 3,
        "failed": 0,
        "warnings": 0,
        "unmatchable": 0,
    }
    assert (await job(tenant, first["id"]))["counts"]["created"] == 3
    changed = [
        # the same email in another case, a new stage: updated
        {"email": "DANA.REYES@example.COM", "stage": "ACTIVE_CLIENT"},
        # the same number written otherwise, tags replaced
        {"phone": "+14155550199", "tags": ["seller"]},
        {"email": "new@example.com"},  # nobody: created
        {"email": "new@example.com", "first_name": "Newt"},  # the row before's contact
    ]
    later = await start(tenant, {"object": "contacts", "rows": changed})
    await drive(runtime)
    assert (await job(tenant, later["id"]))["counts"] == {
        "rows": 4,
        "created": 1,
        "updated": 3,
        "unchanged": 0,
        "failed": 0,
        "warnings": 0,
        "unmatchable": 0,
    }
    stored = {row["first_name"]: row for row in await contacts_of(runtime, tenant.id)}
    assert len(stored) == 4
    assert stored["Dana"]["stage"] == "ACTIVE_CLIENT"
    assert stored["Dana"]["email"] == "DANA.REYES@example.COM"
    assert stored["Lee"]["tags"] == ["seller"] and stored["Lee"]["stage"] == "HOT_LEAD"
    assert stored["Newt"]["email"] == "new@example.com"
    types = await event_types(runtime, tenant.id)
    assert types["contact.updated"] == 3 and types["contact.stage_changed"] == 1
    assert types["contact.created"] == 4
    updated = [row for row in await outbox(runtime, tenant.id) if row["type"] == "contact.updated"]
    assert updated[0]["data"]["changed"] == ["email", "stage"]


async def test_match_on_phone_only_and_none(runtime, tenant):
    await start(tenant, {"object": "contacts", "rows": PEOPLE})
    await drive(runtime)
    by_phone = await start(
        tenant,
        {
            "object": "contacts",
            "rows": [{"email": "dana.reyes@example.com", "first_name": "Other"}],
            "match_on": ["phone"],
        },
    )
    always = await start(tenant, {"object": "contacts", "rows": PEOPLE[:1], "match_on": []})
    await drive(runtime)
    assert (await job(tenant, by_phone["id"]))["counts"]["created"] == 1
    assert (await job(tenant, always["id"]))["counts"]["created"] == 1
    assert len(await contacts_of(runtime, tenant.id)) == 5


async def test_leads_rows_record_consent_and_are_routed(runtime, tenant):
    ids = await load_team(
        runtime, tenant.id, [{"name": "All to Luis", "method": "agent", "agent": "luis"}]
    )
    consent = {"source_url": "https://example.com/form", "captured_at": "2026-11-01T10:00:00Z"}
    rows = [
        {"phone": "+1 415 555 0142", "source": "Zillow", "consent": consent},
        {"phone": "+1 415 555 0143", "source": "Zillow", "skip_routing": True},
        {"phone": "1", "source": "Zillow"},  # refused: too short
    ]
    made = await start(tenant, {"object": "leads", "rows": rows})
    await drive(runtime)
    done = await job(tenant, made["id"])
    assert done["counts"] == {
        "rows": 3,
        "created": 2,
        "updated": 0,
        "unchanged": 0,
        "failed": 1,
        "warnings": 0,
        "unmatchable": 0,
    }
    (error,) = await all_errors(tenant, made["id"])
    single = await tenant.post("/v1/leads", json=rows[2])
    expected = assert_error(single, 400, "validation_failed")["details"]["errors"]
    assert error == {
        "index": 2,
        "line": None,
        "kind": "refused",
        "errors": [{"field": item["field"], "message": item["message"]} for item in expected],
    }
    leads = (await tenant.get("/v1/leads")).json()["data"]
    by_phone = {lead["phone"]: lead for lead in leads if lead["phone"] != "1"}
    routed, skipped = by_phone["+1 415 555 0142"], by_phone["+1 415 555 0143"]
    assert (routed["assignee_id"], routed["routing_status"]) == (ids["luis"], "assigned")
    assert routed["consent_id"] is not None and routed["ai_outbound_allowed"] is True
    assert skipped["routing_status"] == "skipped" and skipped["consent_id"] is None
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        artifact = await valid_consent(session, "+14155550142", now=runtime.clock())
    assert artifact is not None and artifact["lead_id"] == routed["id"]
    types = await event_types(runtime, tenant.id)
    assert types["lead.created"] == 2 + 0 and types["lead.assigned"] == 1


async def test_skip_routing_for_the_whole_import(runtime, tenant):
    await load_team(runtime, tenant.id, [{"name": "Maya", "method": "agent", "agent": "maya"}])
    rows = [{"phone": f"+1 415 555 01{index:02d}", "source": "Zillow"} for index in range(3)]
    await start(tenant, {"object": "leads", "rows": rows, "skip_routing": True})
    await drive(runtime)
    leads = (await tenant.get("/v1/leads")).json()["data"]
    assert {lead["routing_status"] for lead in leads} == {"skipped"}
    assert "lead.assigned" not in await event_types(runtime, tenant.id)


async def test_a_workspace_runs_one_import_at_a_time(runtime, tenant, other_tenant):
    first = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    second = await start(tenant, {"object": "contacts", "rows": PEOPLE[:1], "match_on": []})
    elsewhere = await start(other_tenant, {"object": "contacts", "rows": PEOPLE})
    claims = await jobs.claim(runtime, 5)
    assert sorted(claim.import_id for claim in claims) == sorted([first["id"], elsewhere["id"]])
    assert (await job(tenant, first["id"]))["status"] == "running"
    assert (await job(tenant, second["id"]))["status"] == "queued"
    assert await jobs.claim(runtime, 5) == []  # the second still waits
    for claimed in claims:
        await jobs.process(runtime, claimed)
    assert (await job(tenant, first["id"]))["status"] == "completed"
    assert (await job(tenant, second["id"]))["status"] == "queued"
    (claimed,) = await jobs.claim(runtime, 5)
    assert claimed.import_id == second["id"]
    await jobs.process(runtime, claimed)
    assert (await job(tenant, second["id"]))["status"] == "completed"


async def test_a_worker_that_dies_mid_import_is_resumed_without_doubles(runtime, tenant):
    batch = jobs.BATCH["contacts"]
    total = 2 * batch + 120
    rows = [{"first_name": f"P{index}", "email": f"p{index}@example.com"} for index in range(total)]
    rows[batch + 50] = {"email": "broken"}
    made = await start(tenant, {"object": "contacts", "rows": rows})
    (claimed,) = await jobs.claim(runtime, 1)
    running = await jobs.load(runtime, claimed)
    assert running is not None
    await jobs.step(runtime, running)  # one batch committed, then the worker "dies"
    half = await job(tenant, made["id"])
    assert half["status"] == "running" and half["counts"]["created"] == batch
    assert half["progress"] == round(batch / total, 4)
    assert await jobs.claim(runtime, 1) == []  # its lease still holds
    real = runtime.clock
    runtime.clock = lambda: real() + timedelta(seconds=jobs.LEASE_SECONDS + 1)
    try:
        (again,) = await jobs.claim(runtime, 1)
        assert again.import_id == made["id"] and again.token != claimed.token
        # The dead worker's late batch is fenced off: it writes nothing.
        with pytest.raises(jobs.LeaseLost):
            await jobs.step(runtime, running)
        await jobs.process(runtime, again)
    finally:
        runtime.clock = real
    done = await job(tenant, made["id"])
    assert done["status"] == "completed"
    assert done["counts"] == {
        "rows": total,
        "created": total - 1,
        "updated": 0,
        "unchanged": 0,
        "failed": 1,
        "warnings": 0,
        "unmatchable": 0,
    }
    stored = await contacts_of(runtime, tenant.id)
    assert len(stored) == total - 1 and len({row["email"] for row in stored}) == total - 1
    assert [item["index"] for item in await all_errors(tenant, made["id"])] == [batch + 50]
    assert (await event_types(runtime, tenant.id))["contact.created"] == total - 1
    assert (await stored_import(runtime, made["id"]))["attempts"] == 2


async def test_an_import_that_keeps_failing_ends_failed(runtime, tenant):
    made = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    real = runtime.clock
    try:
        for attempt in range(jobs.MAX_ATTEMPTS):
            (claimed,) = await jobs.claim(runtime, 1)  # and dies each time
            moved = real() + timedelta(seconds=(jobs.LEASE_SECONDS + 1) * (attempt + 1))
            runtime.clock = lambda moved=moved: moved
        assert await jobs.claim(runtime, 1) == []
    finally:
        runtime.clock = real
    failed = await job(tenant, made["id"])
    assert failed["status"] == "failed" and failed["finished_at"] is not None
    assert (await stored_import(runtime, made["id"]))["payload"] is None


async def test_another_workspaces_import_is_404(runtime, tenant, other_tenant):
    made = await start(tenant, {"object": "contacts", "rows": BAD_ROWS[1:2]})
    await drive(runtime)
    for path in (f"/v1/imports/{made['id']}", f"/v1/imports/{made['id']}/errors"):
        assert_error(await other_tenant.get(path), 404, "not_found")
        assert (await tenant.get(path)).status_code == 200
    assert (await other_tenant.get("/v1/imports")).json()["data"] == []
    assert_error(await tenant.get("/v1/imports/imp_nope"), 404, "not_found")


async def test_erasure_scrubs_the_rows_an_unfinished_import_wrote(runtime, tenant):
    total = jobs.BATCH["contacts"] + 50
    rows = [{"first_name": f"P{index}", "email": f"p{index}@example.com"} for index in range(total)]
    made = await start(tenant, {"object": "contacts", "rows": rows})
    (claimed,) = await jobs.claim(runtime, 1)
    running = await jobs.load(runtime, claimed)
    assert running is not None
    await jobs.step(runtime, running)
    first = (await contacts_of(runtime, tenant.id))[0]
    assert first["email"] == "p0@example.com"
    assert (await tenant.delete(f"/v1/contacts/{first['id']}")).status_code == 200
    payload = (await stored_import(runtime, made["id"]))["payload"]
    written = jobs.BATCH["contacts"]
    assert payload[:written] == [None] * written and payload[written:] == rows[written:]
    await jobs.step(runtime, running)  # the worker carries on from its position
    done = await job(tenant, made["id"])
    assert done["status"] == "completed" and done["counts"]["created"] == total


async def test_finished_imports_are_pruned_after_the_retention_period(runtime, tenant):
    made = await start(tenant, {"object": "contacts", "rows": BAD_ROWS[1:3]})
    await drive(runtime)
    later = runtime.clock() + timedelta(days=runtime.settings.retention_events_days + 1)
    kinds = [kind for kind in retention.KINDS if kind.name == "imports"]
    assert await retention.prune(
        runtime.db, runtime.settings, now=runtime.clock(), kinds=kinds
    ) == {"imports": 0}
    assert await retention.prune(runtime.db, runtime.settings, now=later, kinds=kinds) == {
        "imports": 1
    }
    assert_error(await tenant.get(f"/v1/imports/{made['id']}"), 404, "not_found")


async def test_the_database_holds_one_running_import_per_workspace(runtime, tenant):
    """What keeps two workers from starting two imports of a workspace at once on
    PostgreSQL (each skips the row the other locked): the partial unique index."""
    first = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    second = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    (claimed,) = await jobs.claim(runtime, 2)
    assert claimed.import_id == first["id"]
    imports = jobs.imports
    with pytest.raises(IntegrityError):
        async with runtime.db.transaction() as connection:
            session = TenantSession(connection, tenant.id, clock=runtime.clock)
            await session.execute(
                session.update(imports).where(imports.c.id == second["id"]).values(status="running")
            )
    assert (await job(tenant, second["id"]))["status"] == "queued"


async def test_the_list_shows_the_imports_the_credential_may_read(runtime, tenant):
    contacts_import = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    leads_import = await start(tenant, {"object": "leads", "rows": [{"phone": "+14155550142"}]})
    listed = (await tenant.get("/v1/imports")).json()["data"]
    assert [item["id"] for item in listed] == [leads_import["id"], contacts_import["id"]]
    _, key = await make_key(runtime, tenant.id, ["leads:read"])
    leads_reader = {"Authorization": f"token {key}"}
    listed = (await tenant.client.get("/v1/imports", headers=leads_reader)).json()["data"]
    assert [item["id"] for item in listed] == [leads_import["id"]]
    for path in (
        f"/v1/imports/{contacts_import['id']}",
        f"/v1/imports/{contacts_import['id']}/errors",
    ):
        refused = await tenant.client.get(path, headers=leads_reader)
        assert assert_error(refused, 403, "insufficient_scope")["details"] == {
            "missing_scope": "contacts:read"
        }
    shown = await tenant.client.get(f"/v1/imports/{leads_import['id']}", headers=leads_reader)
    assert shown.status_code == 200
