"""Free-form JSON members: lead `context` and consent `form_snapshot`
have documented bounds (kit/freeform.py): 16 KiB as compact JSON, depth 8, keys of 128
characters, 512 values. Over any is 400 naming the member, and nothing is stored."""

import orjson
import pytest
from sqlalchemy import func, select

from homebase.kit import freeform
from homebase.models import ConsentArtifact, Lead
from tests.support import failing_fields

LEAD = {"phone": "+1 415 555 0142", "source": "Zillow"}


def nested(depth: int) -> dict:
    """An object `depth` levels deep (the outer object is level 1)."""
    value: dict = {"leaf": True}
    for _ in range(depth - 1):
        value = {"inner": value}
    return value


def sized(size: int) -> dict:
    """An object that is exactly `size` bytes as compact JSON."""
    value = {"note": ""}
    value["note"] = "n" * (size - len(orjson.dumps(value)))
    assert len(orjson.dumps(value)) == size
    return value


TOO_MUCH = {
    "too large": sized(freeform.MAX_BYTES + 1),
    "too deep": nested(freeform.MAX_DEPTH + 1),
    "far too deep": nested(300),  # the encoder could not even render it back
    "long key": {"k" * (freeform.MAX_KEY_LENGTH + 1): 1},
    "too many values": {"tags": list(range(freeform.MAX_VALUES))},
    "many small members": {f"k{index}": index for index in range(freeform.MAX_VALUES + 1)},
}
AT_THE_BOUNDS = {
    "largest": sized(freeform.MAX_BYTES),
    "deepest": nested(freeform.MAX_DEPTH),
    "longest key": {"k" * freeform.MAX_KEY_LENGTH: 1},
    "most values": {"tags": list(range(freeform.MAX_VALUES - 1))},
}


async def rows(runtime, table) -> int:
    async with runtime.db.transaction(write=False) as connection:
        return (await connection.execute(select(func.count()).select_from(table))).scalar_one()


@pytest.mark.parametrize("case", TOO_MUCH)
async def test_context_over_a_bound_is_400_naming_it(runtime, tenant, case):
    response = await tenant.post("/v1/leads", json={**LEAD, "context": TOO_MUCH[case]})
    assert failing_fields(response) == {"context"}
    assert await rows(runtime, Lead.__table__) == 0


@pytest.mark.parametrize("case", TOO_MUCH)
async def test_form_snapshot_over_a_bound_is_400_naming_it(runtime, tenant, case):
    response = await tenant.post(
        "/v1/leads", json={**LEAD, "consent": {"form_snapshot": TOO_MUCH[case]}}
    )
    assert failing_fields(response) == {"consent.form_snapshot"}
    assert await rows(runtime, ConsentArtifact.__table__) == 0


async def test_both_members_are_named_at_once(tenant):
    response = await tenant.post(
        "/v1/leads",
        json={**LEAD, "context": nested(20), "consent": {"form_snapshot": sized(20_000)}},
    )
    assert failing_fields(response) == {"context", "consent.form_snapshot"}


@pytest.mark.parametrize("case", AT_THE_BOUNDS)
async def test_values_at_the_bounds_are_stored_and_echoed_whole(tenant, case):
    value = AT_THE_BOUNDS[case]
    response = await tenant.post(
        "/v1/leads", json={**LEAD, "context": value, "consent": {"form_snapshot": value}}
    )
    assert response.status_code == 201, response.text
    lead = response.json()
    assert lead["context"] == value
    assert (await tenant.get(f"/v1/leads/{lead['id']}")).json()["context"] == value


def test_the_messages_say_which_bound():
    expected = {
        "too large": "bytes as JSON",
        "too deep": "deeper than 8",
        "far too deep": "deeper than 8",
        "long key": "longer than 128",
        "too many values": "more than 512",
        "many small members": "more than 512",
    }
    for case, words in expected.items():
        with pytest.raises(ValueError, match=words):
            freeform.bounded(TOO_MUCH[case])


async def test_openapi_documents_the_bounds(client):
    schemas = (await client.get("/v1/openapi.json")).json()["components"]["schemas"]
    for schema, member in (("LeadCreate", "context"), ("ConsentIn", "form_snapshot")):
        description = schemas[schema]["properties"][member]["description"]
        assert "16384 bytes" in description and "depth 8" in description, description
