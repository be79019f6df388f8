"""What one record's custom values may carry, at the HTTP level on SQLite and PostgreSQL:
a multi_select value holds at most 50 choices, a record's `custom_fields` are at most
32 KiB as compact UTF-8 JSON after a write (unless the write does not grow a record
already past it), and a field's choices stay at most 100 of at most 80 characters. On
contacts and deals, on create and update; imports are in tests/imports/test_import_bounds.py."""

import json

import pytest

from homebase.custom_fields.definitions import MAX_SELECTED, MAX_VALUES_BYTES
from homebase.db.tenancy import TenantSession
from homebase.kit.openapi_requests import UNSTATED_RULES
from homebase.models import Contact, Deal
from tests.custom_fields.test_custom_fields import FIELDS, field, record
from tests.support import failing_fields

OBJECTS = ["contacts", "deals"]
MODELS = {"contacts": Contact, "deals": Deal}
# 1000 characters of two bytes each: a text value's most, in bytes.
WIDEST = "é" * 1000


def size(values: dict) -> int:
    """The bound's measure, computed here independently: compact JSON, UTF-8 bytes."""
    return len(json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode())


def text_of(length: int) -> str:
    """A text of exactly `length` UTF-8 bytes (1 to 2000) and at most 1000 characters."""
    wide = max(0, length - 1000)
    return "é" * wide + "a" * (length - 2 * wide)


def values_of_size(keys: list[str], target: int) -> dict[str, str]:
    """Text values under `keys` (in order, as many as needed) taking exactly `target` bytes."""
    values: dict[str, str] = {}
    for key in keys:
        room = target - size({**values, key: ""})
        if room <= len(WIDEST.encode()):
            assert room >= 1, "the keys leave no room for a last value"
            values[key] = text_of(room)
            assert size(values) == target
            return values
        values[key] = WIDEST
    raise AssertionError("not enough keys")


async def text_fields(tenant, object: str, count: int) -> list[str]:
    keys = [f"note_{n:02}" for n in range(count)]
    for key in keys:
        await field(tenant, object, key, "text")
    return keys


async def listed(tenant, object: str) -> list[dict]:
    return (await tenant.get(f"/v1/{object}", params={"limit": 200})).json()["data"]


async def store(runtime, workspace_id: str, object: str, record_id: str, stored: dict) -> None:
    """Writes a record's stored values (keyed by field id) directly: a record written
    before the bound existed."""
    table = MODELS[object].__table__
    async with runtime.db.transaction(write=True) as connection:
        session = TenantSession(connection, workspace_id)
        await session.execute(
            session.update(table).where(table.c.id == record_id).values(custom_fields=stored)
        )


def test_the_bounds_are_in_the_document(app):
    schemas = app.openapi()["components"]["schemas"]
    values = schemas["ContactCreate"]["properties"]["custom_fields"]["anyOf"][0]
    array = next(o for o in values["additionalProperties"]["anyOf"] if o["type"] == "array")
    assert array["maxItems"] == MAX_SELECTED == 50
    assert str(MAX_VALUES_BYTES) in values["description"]
    choices = schemas["CustomFieldUpdate"]["properties"]["choices"]
    assert (choices["maxItems"], choices["items"]["maxLength"]) == (100, 80)
    # What no schema can say is listed with the rules no schema states, with the same figure.
    (rule,) = [r for r in UNSTATED_RULES if r.members == ("custom_fields",)]
    assert f"{MAX_VALUES_BYTES} bytes" in rule.rule and MAX_VALUES_BYTES == 32 * 1024
    assert {"POST /v1/contacts", "PATCH /v1/deals/{id}"} <= set(rule.operations)


@pytest.mark.parametrize("object", OBJECTS)
async def test_a_multi_select_value_holds_at_most_50_choices(tenant, object):
    choices = [f"area_{n}" for n in range(100)]
    await field(tenant, object, "areas", "multi_select", choices=choices)
    refused = await record_response(tenant, object, {"areas": choices[:51]})
    assert failing_fields(refused) == {"custom_fields.areas"}
    assert "50" in refused.json()["error"]["details"]["errors"][0]["message"]
    assert await listed(tenant, object) == []

    made = await record(tenant, object, custom_fields={"areas": choices[:50]})
    assert made["custom_fields"] == {"areas": choices[:50]}
    url = f"/v1/{object}/{made['id']}"
    refused = await tenant.patch(url, json={"custom_fields": {"areas": choices[49:]}})
    assert failing_fields(refused) == {"custom_fields.areas"}
    assert (await tenant.get(url)).json()["custom_fields"] == {"areas": choices[:50]}
    changed = await tenant.patch(url, json={"custom_fields": {"areas": choices[50:]}})
    assert changed.status_code == 200, changed.text
    assert (await tenant.get(url)).json()["custom_fields"] == {"areas": choices[50:]}


async def record_response(tenant, object: str, values: dict):
    body: dict = {"custom_fields": values}
    if object == "deals":
        pipelines = (await tenant.get("/v1/pipelines")).json()["data"]
        body |= {"title": "Reyes purchase", "pipeline_id": pipelines[0]["id"]}
    return await tenant.post(f"/v1/{object}", json=body)


@pytest.mark.parametrize("object", OBJECTS)
async def test_a_record_carries_at_most_32_kib_on_create(tenant, object):
    keys = await text_fields(tenant, object, 20)
    over = values_of_size(keys, MAX_VALUES_BYTES + 1)
    refused = await record_response(tenant, object, over)
    assert failing_fields(refused) == {"custom_fields"}
    assert str(MAX_VALUES_BYTES) in refused.json()["error"]["message"]
    assert await listed(tenant, object) == []  # nothing written

    exact = values_of_size(keys, MAX_VALUES_BYTES)
    made = await record(tenant, object, custom_fields=exact)
    assert made["custom_fields"] == exact
    assert size(made["custom_fields"]) == MAX_VALUES_BYTES


@pytest.mark.parametrize("object", OBJECTS)
async def test_a_record_carries_at_most_32_kib_after_an_update(tenant, object):
    keys = await text_fields(tenant, object, 20)
    exact = values_of_size(keys, MAX_VALUES_BYTES)
    last = list(exact)[-1]
    made = await record(tenant, object, custom_fields={k: v for k, v in exact.items() if k != last})
    url = f"/v1/{object}/{made['id']}"
    # One byte more than the bound: an ASCII character of the last value made two bytes
    # wide, the same number of characters.
    wider = exact[last].replace("a", "é", 1)
    assert len(wider) == len(exact[last]) and "a" in exact[last]
    refused = await tenant.patch(url, json={"custom_fields": {last: wider}})
    assert failing_fields(refused) == {"custom_fields"}
    assert last not in (await tenant.get(url)).json()["custom_fields"]  # nothing written

    filled = await tenant.patch(url, json={"custom_fields": {last: exact[last]}})
    assert filled.status_code == 200, filled.text
    assert size(filled.json()["custom_fields"]) == MAX_VALUES_BYTES
    # At the bound, any growth is refused, and a write that does not grow it is taken.
    grown = await tenant.patch(url, json={"custom_fields": {keys[-1]: "x"}})
    assert failing_fields(grown) == {"custom_fields"}
    same_size = exact[last].replace("a", "b", 1)
    kept = await tenant.patch(url, json={"custom_fields": {last: same_size}})
    assert kept.status_code == 200, kept.text
    assert kept.json()["custom_fields"][last] == same_size


@pytest.mark.parametrize("object", OBJECTS)
async def test_a_record_already_past_the_bound_may_shrink_but_not_grow(runtime, tenant, object):
    keys = await text_fields(tenant, object, 20)
    exact = values_of_size(keys, MAX_VALUES_BYTES)
    made = await record(tenant, object, custom_fields=exact)
    url = f"/v1/{object}/{made['id']}"
    # Stored before the bound existed: one more full value, past it.
    ids = {item["key"]: item["id"] for item in (await tenant.get(FIELDS)).json()["data"]}
    spare = next(key for key in keys if key not in exact)
    past = {**exact, spare: WIDEST}
    await store(runtime, tenant.id, object, made["id"], {ids[k]: v for k, v in past.items()})
    before = (await tenant.get(url)).json()["custom_fields"]
    assert before == past and size(before) > MAX_VALUES_BYTES

    same_size = await tenant.patch(url, json={"custom_fields": {spare: WIDEST[:-1] + "ü"}})
    assert same_size.status_code == 200, same_size.text
    grows = await tenant.patch(url, json={"custom_fields": {spare: WIDEST[:-1] + "😀"}})
    assert failing_fields(grows) == {"custom_fields"}
    other_members = {"deals": {"title": "Renamed"}, "contacts": {"first_name": "Dana"}}[object]
    untouched = await tenant.patch(url, json=other_members)
    assert untouched.status_code == 200, untouched.text
    shrinks = await tenant.patch(url, json={"custom_fields": {keys[0]: None}})
    assert shrinks.status_code == 200, shrinks.text
    after = (await tenant.get(url)).json()["custom_fields"]
    assert keys[0] not in after and size(after) < size(before)


async def test_a_fields_choices_stay_at_most_100_of_80_characters(tenant):
    widest = [f"{n:03}" + "c" * 77 for n in range(100)]
    made = await field(tenant, "contacts", "areas", "multi_select", choices=widest)
    assert made["choices"] == widest
    url = f"{FIELDS}/{made['id']}"
    for choices, failing in (
        ([*widest, "one_more"], "choices"),
        ([*widest[:99], "d" * 81], "choices.99"),
    ):
        assert failing_fields(await tenant.patch(url, json={"choices": choices})) == {failing}
    renamed = [*widest[:99], "e" * 80]
    patched = await tenant.patch(url, json={"choices": renamed})
    assert patched.status_code == 200, patched.text
    assert patched.json()["choices"] == renamed
