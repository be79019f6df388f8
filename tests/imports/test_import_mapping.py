"""POST /v1/imports reading a CRM's values: value_map, owners by email or name,
on_invalid_cell, dry runs, match_on phone and name, the errors list's kinds."""

from homebase.db.tenancy import TenantSession
from homebase.imports import jobs
from homebase.models import User
from tests.custom_fields.test_custom_fields import field
from tests.imports_support import all_errors, contacts_of, drive, event_types, job, start

FUB_STAGES = {"Prospect": "LEAD", "Hot Prospect": "HOT_LEAD", "Closed": "PAST_CLIENT"}


async def add_member(runtime, workspace_id: str, user_id: str, email: str, name: str) -> None:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        await session.insert(
            User.__table__,
            {
                "id": user_id,
                "email": email,
                "name": name,
                "password_hash": None,
                "office_id": None,
                "team_id": None,
                "created_at": session.now(),
            },
        )


async def test_value_map_turns_a_crms_values_into_ours(runtime, tenant):
    await field(tenant, key="pre_approved", type="boolean")
    rows = [
        {"email": "a@example.com", "stage": "Prospect", "custom_fields": {"pre_approved": "Yes"}},
        {
            "email": "b@example.com",
            "stage": "hot prospect ",
            "custom_fields": {"pre_approved": "No"},
        },
        {"email": "c@example.com", "stage": "Closed", "custom_fields": {"pre_approved": "Pending"}},
    ]
    value_map = {
        "stage": FUB_STAGES,
        "custom_fields.pre_approved": {"Yes": True, "No": False, "Pending": None},
    }
    made = await start(tenant, {"object": "contacts", "rows": rows, "value_map": value_map})
    await drive(runtime)
    done = await job(tenant, made["id"])
    assert (done["counts"]["created"], done["counts"]["failed"]) == (3, 0)
    listed = (await tenant.get("/v1/contacts", params={"limit": 10})).json()["data"]
    stored = {row["email"]: row for row in listed}
    assert [stored[f"{name}@example.com"]["stage"] for name in "abc"] == [
        "LEAD",
        "HOT_LEAD",
        "PAST_CLIENT",
    ]
    assert stored["a@example.com"]["custom_fields"] == {"pre_approved": True}
    assert stored["b@example.com"]["custom_fields"] == {"pre_approved": False}
    assert stored["c@example.com"]["custom_fields"].get("pre_approved") is None


async def test_an_owner_is_read_by_id_email_or_a_unique_full_name(runtime, tenant):
    await add_member(runtime, tenant.id, "usr_jo", "Jo.Agent@Example.com", "Jo Agent")
    await add_member(runtime, tenant.id, "usr_al1", "al1@example.com", "Al Twin")
    await add_member(runtime, tenant.id, "usr_al2", "al2@example.com", "Al Twin")
    rows = [
        {"first_name": "A", "owner_id": "usr_jo"},
        {"first_name": "B", "owner_id": "jo.agent@example.COM"},
        {"first_name": "C", "owner_id": "jo  agent"},
        {"first_name": "D", "owner_id": "Al Twin"},  # two members: a warning
        {"first_name": "E", "owner_id": "Nobody Here"},
    ]
    body = {"object": "contacts", "rows": rows, "on_invalid_cell": "skip", "match_on": []}
    made = await start(tenant, body)
    await drive(runtime)
    done = await job(tenant, made["id"])
    assert done["counts"]["created"] == 5 and done["counts"]["warnings"] == 2
    owners = {row["first_name"]: row["owner_id"] for row in await contacts_of(runtime, tenant.id)}
    assert owners == {"A": "usr_jo", "B": "usr_jo", "C": "usr_jo", "D": None, "E": None}
    warned = await all_errors(tenant, made["id"])
    assert [(item["index"], item["kind"]) for item in warned] == [(3, "warning"), (4, "warning")]
    assert warned[0]["errors"][0]["field"] == "owner_id"
    assert "several members" in warned[0]["errors"][0]["message"]
    # refuse (the default): an owner that is no member refuses the row, as POST would
    refused = await start(tenant, {"object": "contacts", "rows": rows[3:]})
    await drive(runtime)
    assert (await job(tenant, refused["id"]))["counts"]["failed"] == 2


BAD_CELLS = [
    {"email": "ok@example.com", "stage": "Prospect"},  # no such stage
    {"email": "num@example.com", "custom_fields": {"budget": "lots"}},  # not a number
    {"email": "not-an-email", "first_name": "Bad"},  # refused in both modes
    {"phone": "555-CALL-NOW", "first_name": "Phony"},  # kept, a warning in both
    {"source": "Zillow"},  # names no one
]


async def test_skip_leaves_bad_cells_out_and_refuse_refuses_the_row(runtime, tenant):
    await field(tenant, key="budget", type="number")
    skipped = await start(
        tenant, {"object": "contacts", "rows": BAD_CELLS, "on_invalid_cell": "skip"}
    )
    await drive(runtime)
    done = await job(tenant, skipped["id"])
    assert done["on_invalid_cell"] == "skip"
    counts = done["counts"]
    assert (counts["created"], counts["failed"], counts["warnings"]) == (3, 2, 3)
    items = await all_errors(tenant, skipped["id"])
    assert [(item["index"], item["kind"]) for item in items] == [
        (0, "warning"),
        (1, "warning"),
        (2, "refused"),
        (3, "warning"),
        (4, "refused"),
    ]
    assert [error["field"] for item in items for error in item["errors"]] == [
        "stage",
        "custom_fields.budget",
        "email",
        "phone",
        "row",
    ]
    only = await tenant.get(f"/v1/imports/{skipped['id']}/errors", params={"kind": "refused"})
    assert [item["index"] for item in only.json()["data"]] == [2, 4]
    stored = {
        row["first_name"] or row["email"]: row for row in await contacts_of(runtime, tenant.id)
    }
    assert stored["ok@example.com"]["stage"] == "LEAD"  # the default, the cell left out
    assert stored["Phony"]["phone"] == "555-CALL-NOW"  # kept exactly as sent

    refused = await start(tenant, {"object": "contacts", "rows": BAD_CELLS, "match_on": []})
    await drive(runtime)
    counts = (await job(tenant, refused["id"]))["counts"]
    assert (counts["created"], counts["failed"], counts["warnings"]) == (2, 3, 1)
    kinds = [(item["index"], item["kind"]) for item in await all_errors(tenant, refused["id"])]
    assert kinds == [(0, "refused"), (1, "refused"), (2, "refused"), (3, "warning")]


async def test_a_bad_kind_filter_is_400(tenant):
    made = await start(tenant, {"object": "contacts", "rows": [{"first_name": "A"}]})
    response = await tenant.get(f"/v1/imports/{made['id']}/errors", params={"kind": "all"})
    assert response.status_code == 400
    assert response.json()["error"]["details"]["errors"][0]["field"] == "kind"


PEOPLE = [
    {"first_name": "Dana", "last_name": "Reyes", "email": "dana@example.com"},
    {"first_name": "Sam", "last_name": "Ortiz", "phone": "(415) 555-0142"},
    {"first_name": "sam", "last_name": "ORTIZ", "phone": "+14155550142", "tags": ["vip"]},
    {"first_name": "Lee", "last_name": "Chan"},
    {"first_name": "Lone"},
]


async def test_a_dry_run_counts_and_writes_nothing(runtime, tenant):
    await start(tenant, {"object": "contacts", "rows": PEOPLE[:1]})
    await drive(runtime)
    before = await event_types(runtime, tenant.id)
    rows = [*PEOPLE, {"email": "bad"}, {"email": "DANA@example.com", "notes": "new"}]
    made = await start(tenant, {"object": "contacts", "rows": rows, "dry_run": True})
    assert made["dry_run"] is True
    await drive(runtime)
    done = await job(tenant, made["id"])
    assert done["status"] == "completed" and done["progress"] == 1
    assert done["counts"] == {
        "rows": 7,
        "created": 3,  # Sam (twice in the file: one contact), Lee, Lone
        "updated": 2,  # the second Sam row, Dana's notes
        "unchanged": 1,  # Dana as she is
        "failed": 1,
        "warnings": 0,
        "unmatchable": 2,
    }
    assert [item["index"] for item in await all_errors(tenant, made["id"])] == [5]
    assert len(await contacts_of(runtime, tenant.id)) == 1
    assert await event_types(runtime, tenant.id) == before


async def test_a_dry_run_does_not_wait_for_the_running_import(runtime, tenant):
    real = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    (claimed,) = await jobs.claim(runtime, 2)  # running, its batches not yet written
    assert claimed.import_id == real["id"]
    dry = await start(tenant, {"object": "contacts", "rows": PEOPLE, "dry_run": True})
    (also,) = await jobs.claim(runtime, 2)
    assert also.import_id == dry["id"]
    await jobs.process(runtime, also)
    assert (await job(tenant, dry["id"]))["status"] == "completed"
    assert (await job(tenant, real["id"]))["status"] == "running"
    queued = await start(tenant, {"object": "contacts", "rows": PEOPLE})
    assert await jobs.claim(runtime, 2) == []  # a real import still waits its turn
    await jobs.process(runtime, claimed)
    await drive(runtime)
    counts = (await job(tenant, queued["id"]))["counts"]
    assert counts["created"] == counts["unmatchable"] == 2  # Lee and Lone carry no key


async def test_a_second_import_of_the_same_rows_creates_none(runtime, tenant):
    body = {"object": "contacts", "rows": PEOPLE, "match_on": ["email", "phone", "name"]}
    first = await start(tenant, body)
    await drive(runtime)
    counts = (await job(tenant, first["id"]))["counts"]
    assert (counts["created"], counts["updated"], counts["unmatchable"]) == (4, 1, 1)
    stored = await contacts_of(runtime, tenant.id)
    sam = next(row for row in stored if row["phone_e164"] == "+14155550142")
    assert sam["first_name"] == "sam" and sam["tags"] == ["vip"]  # later values win
    again = await start(tenant, body)
    await drive(runtime)
    counts = (await job(tenant, again["id"]))["counts"]
    # Lone carries no key (no email, phone, or last name): created again, and counted so
    assert (counts["created"], counts["unmatchable"]) == (1, 1)
    # Sam's two rows set his names one way, then back: the later row wins again
    assert (counts["unchanged"], counts["updated"]) == (2, 2)


async def test_match_on_name_takes_the_owner_into_account(runtime, tenant):
    await add_member(runtime, tenant.id, "usr_jo", "jo@example.com", "Jo Agent")
    rows = [
        {"first_name": "Ana", "last_name": "Silva", "owner_id": "usr_jo"},
        {"first_name": "ANA", "last_name": "silva", "owner_id": "usr_jo", "source": "Zillow"},
        {"first_name": "Ana", "last_name": "Silva"},  # another owner (none): another person
    ]
    made = await start(tenant, {"object": "contacts", "rows": rows, "match_on": ["name"]})
    await drive(runtime)
    counts = (await job(tenant, made["id"]))["counts"]
    assert (counts["created"], counts["updated"]) == (2, 1)


async def test_a_leads_dry_run_creates_no_lead(runtime, tenant):
    rows = [
        {"phone": "+1 415 555 0142", "source": "Zillow"},
        {"phone": "12345", "source": "Zillow"},  # kept as sent, a warning
        {"source": "Zillow"},  # no phone: refused
    ]
    made = await start(tenant, {"object": "leads", "rows": rows, "dry_run": True})
    await drive(runtime)
    counts = (await job(tenant, made["id"]))["counts"]
    assert (counts["created"], counts["failed"], counts["warnings"]) == (2, 1, 1)
    assert (await tenant.get("/v1/leads")).json()["data"] == []
    assert "lead.created" not in await event_types(runtime, tenant.id)
