"""An import's contacts rows keep the custom values' bounds of POST /v1/contacts and PATCH
/v1/contacts/{id} (tests/custom_fields/test_bounds.py): a row whose own values are past
them is refused as its create would be, and a row matching a contact is refused when it
would grow that contact's values past 32 KiB, as its PATCH would be. On SQLite and
PostgreSQL."""

from homebase.custom_fields.definitions import MAX_VALUES_BYTES
from tests.custom_fields.test_bounds import size, text_fields, values_of_size
from tests.custom_fields.test_custom_fields import field
from tests.imports_support import all_errors, drive, job, start


async def test_rows_past_the_bounds_are_refused_naming_the_member(runtime, tenant):
    keys = await text_fields(tenant, "contacts", 20)
    choices = [f"area_{n}" for n in range(60)]
    await field(tenant, "contacts", "areas", "multi_select", choices=choices)
    near = values_of_size(keys, MAX_VALUES_BYTES - 100)
    spare = next(key for key in keys if key not in near)
    existing = await tenant.post(
        "/v1/contacts", json={"email": "dana@example.com", "custom_fields": near}
    )
    assert existing.status_code == 201, existing.text
    url = f"/v1/contacts/{existing.json()['id']}"
    first = next(iter(near))
    refused = await tenant.patch(url, json={"custom_fields": {spare: "x" * 200}})
    (patch_error,) = refused.json()["error"]["details"]["errors"]
    rows = [
        {"first_name": "Many", "custom_fields": {"areas": choices[:51]}},
        {"first_name": "Large", "custom_fields": values_of_size(keys, MAX_VALUES_BYTES + 1)},
        # Small alone, but the contact it matches would pass the bound.
        {"email": "DANA@example.com", "custom_fields": {spare: "x" * 200}},
        {"first_name": "Fits", "custom_fields": {"areas": choices[:50]}},
        # The same contact, a value removed: it shrinks, so it is taken.
        {"email": "dana@example.com", "custom_fields": {first: None}},
    ]
    made = await start(tenant, {"object": "contacts", "rows": rows})
    await drive(runtime)
    done = await job(tenant, made["id"])
    assert done["status"] == "completed"
    assert done["counts"] == {
        "rows": 5,
        "created": 1,
        "updated": 1,
        "unchanged": 0,
        "failed": 3,
        "warnings": 0,
        "unmatchable": 1,
    }
    errors = {item["index"]: item["errors"] for item in await all_errors(tenant, made["id"])}
    assert {index: [e["field"] for e in found] for index, found in errors.items()} == {
        0: ["custom_fields.areas"],
        1: ["custom_fields"],
        2: ["custom_fields"],
    }
    # The same words as the PATCH's 400 for the same write.
    assert errors[2] == [{"field": "custom_fields", "message": patch_error["message"]}]
    after = (await tenant.get(url)).json()["custom_fields"]
    assert spare not in after and first not in after
    assert size(after) < MAX_VALUES_BYTES
    fits = (await tenant.get("/v1/contacts", params={"q": "Fits"})).json()["data"]
    assert [item["custom_fields"] for item in fits] == [{"areas": choices[:50]}]
