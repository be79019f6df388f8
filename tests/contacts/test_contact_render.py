"""The contact list renders its rows from the values as the database hands them
(contacts/render.py `list_item`: on SQLite as stored, on PostgreSQL with the wire's text
of its timestamps); a contact must read the same in a list as
on its own (`contact`, from parsed values), field for field, masked or not."""

from datetime import UTC, datetime

import pytest

from homebase.db.types import stored_json_to_wire, stored_time_to_wire
from homebase.kit.clock import isoformat
from tests.support import add_members, make_key

VARIED = [
    {
        "first_name": "Dana",
        "last_name": "Reyes",
        "email": "dana.reyes@example.com",
        "phone": "+1 415 555 0142",
        "stage": "HOT_LEAD",
        "source": "Zillow",
        "tags": ["buyer", "pre-approved"],
        "notes": "Wants 3 beds.",
        "owner_id": "usr_abc",
    },
    {},
    {
        "first_name": "Élodie",
        "email": "E@Example.org",
        "phone": "(415) 555-0199",
        "tags": ["ünïcode", 'a "quoted" tag'],
    },
    {"last_name": "Short", "phone": "12", "email": "x@y.co"},
]


@pytest.fixture
async def tenant(tenant, runtime):
    await add_members(runtime, tenant.id, "usr_abc")  # VARIED's owner
    return tenant


async def test_list_items_equal_single_reads(tenant, runtime, client):
    made = [(await tenant.post("/v1/contacts", json=body)).json() for body in VARIED]
    paused = made[0]["id"]
    assert (
        await tenant.post(f"/v1/contacts/{paused}/notes", json={"body": "Call back Monday"})
    ).status_code == 201
    assert (await tenant.delete(f"/v1/contacts/{made[3]['id']}")).status_code == 200
    masked_key = (await make_key(runtime, tenant.id, ["contacts:read"]))[1]
    for headers in ({}, {"Authorization": f"token {masked_key}"}):
        listed = (await client.get("/v1/contacts", headers=headers or tenant.headers)).json()
        assert len(listed["data"]) == len(VARIED)
        for item in listed["data"]:
            single = await client.get(
                f"/v1/contacts/{item['id']}", headers=headers or tenant.headers
            )
            assert item == single.json()
        by_id = {item["id"]: item for item in listed["data"]}
        assert by_id[paused]["ai_auto_response_paused"] is True
        assert by_id[paused]["ai_auto_response_paused_reason"] == "note"
        assert by_id[made[3]["id"]]["anonymized_at"] is not None
        assert by_id[made[2]["id"]]["tags"] == ["ünïcode", 'a "quoted" tag']


async def test_list_items_keep_projection(tenant):
    await tenant.post("/v1/contacts", json=VARIED[0])
    item = (await tenant.get("/v1/contacts?fields=tags,created_at")).json()["data"][0]
    assert set(item) == {"id", "pii_masked", "tags", "created_at"}
    assert item["tags"] == ["buyer", "pre-approved"]


@pytest.mark.parametrize(
    "stored",
    [
        "2026-01-05 15:00:00.123456",
        "2026-01-05 15:00:00.000999",
        "2026-01-05 15:00:00",
        "2026-01-05 15:00:00.500000",
        "2026-01-05T15:00:00.123456+02:00",
        "2026-01-05 15:00:00.5",
    ],
)
def test_stored_time_reads_as_parsing_it_would(stored):
    parsed = datetime.fromisoformat(stored)
    parsed = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed
    assert stored_time_to_wire(stored) == isoformat(parsed)
    assert stored_time_to_wire(None) is None


def test_stored_json_is_embedded_as_is():
    import orjson

    assert orjson.loads(orjson.dumps({"tags": stored_json_to_wire('["a", "b"]')})) == {
        "tags": ["a", "b"]
    }
    assert stored_json_to_wire(None) is None


def test_a_page_with_the_wire_text_of_its_timestamps_reads_as_processed_values_would():
    """On PostgreSQL the page's timestamps come as the wire's text (db/types.wire_time):
    they are used as they are, and the rest of the row renders as from processed values."""
    from homebase.contacts.render import PAGE_COLUMNS, contact, list_item
    from homebase.custom_fields.definitions import Definition, Definitions

    custom = Definitions("contacts", (Definition("cfd_1", "contacts", "memo", "Memo", "text"),))
    moment = datetime(2026, 1, 5, 15, 0, 0, 123456, tzinfo=UTC)
    processed = {
        "id": "con_1",
        "first_name": "Dana",
        "last_name": None,
        "email": "dana@example.com",
        "phone": "(415) 555-0142 ext 7",
        "phone_e164": "+14155550142",
        "stage": "LEAD",
        "source": None,
        "tags": ["buyer", 'a "quoted" tag'],
        "notes": None,
        "owner_id": "usr_1",
        # A deleted field's value (cfd_gone) is not rendered.
        "custom_fields": {"cfd_1": "call (415) 555-0142", "cfd_gone": "old"},
        "ai_paused_at": moment,
        "ai_paused_reason": "note",
        "anonymized_at": None,
        "created_at": moment,
        "updated_at": moment,
    }

    def wire():  # a fresh row as repository.page_columns reads it (the render changes it)
        values = {
            key: isoformat(value) if key.endswith("_at") else value
            for key, value in processed.items()
        }
        return {
            name: values.get(name.replace("ai_auto_response_", "ai_"))
            for name in PAGE_COLUMNS  # the Contact's names; the render sets pii_masked, paused
        }

    for pii in (True, False):
        listed = list_item(pii=pii, stored=False, custom=custom)(wire())
        assert listed == contact(processed, pii=pii, custom=custom)
        assert list(listed) == list(contact(processed, pii=pii, custom=custom))  # same order
        assert listed["custom_fields"] == {
            "memo": "call (415) 555-0142" if pii else "call (***) ***-0142"
        }
    assert (
        list_item(pii=False, stored=False, custom=custom)(wire())["phone"] == "(***) ***-*142 *** 7"
    )  # the last four digits
    assert list_item(pii=False, stored=False, custom=custom)(wire())["phone_e164"] == "+*******0142"
