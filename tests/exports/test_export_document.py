"""POST /v1/exports as the OpenAPI document declares it: one variant per list, chosen by
`object` (a discriminator), whose `filters` are exactly that list's filters and whose
`fields` pattern names exactly its item's members; and the server takes what each variant
declares, every filter and every member, and refuses another list's."""

from typing import Any

import jsonschema_rs
import pytest

from homebase.exports.objects import OBJECTS
from homebase.kit import fields as fields_kit
from tests.kit.test_openapi_references import resolve
from tests.support import failing_fields

SAMPLE_TIME = "2026-11-20T17:00:00Z"


@pytest.fixture
def document(app) -> dict[str, Any]:
    return app.openapi()


def _variant(document: dict[str, Any], name: str) -> dict[str, Any]:
    body = document["paths"]["/v1/exports"]["post"]["requestBody"]["content"]
    schema = resolve(document, body["application/json"]["schema"]["$ref"])
    assert schema["discriminator"]["propertyName"] == "object"
    assert len(schema["oneOf"]) == len(OBJECTS) == len(schema["discriminator"]["mapping"])
    return resolve(document, schema["discriminator"]["mapping"][name])


def _value(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A value the member's schema declares valid (its example, else a simple one)."""
    if "examples" in schema:
        return schema["examples"][0]
    options = [option for option in schema.get("anyOf", [schema]) if option.get("type") != "null"]
    option = options[0]
    if "$ref" in option:
        option = resolve(document, option["$ref"])
    if "enum" in option:
        return option["enum"][0]
    if option.get("format") == "date-time":
        return SAMPLE_TIME
    return "x"


@pytest.mark.parametrize("name", list(OBJECTS))
def test_each_variant_declares_its_lists_filters_and_fields(document, name):
    item = OBJECTS[name]
    variant = _variant(document, name)
    assert variant["properties"]["object"]["enum"] == [name] and "object" in variant["required"]
    assert variant["additionalProperties"] is False
    filters = resolve(document, variant["properties"]["filters"]["$ref"])
    assert set(filters["properties"]) == set(item.filters.model_fields)
    assert filters["additionalProperties"] is False
    assert variant["properties"]["fields"]["pattern"] == fields_kit.pattern(item.item)


@pytest.mark.parametrize("name", list(OBJECTS))
async def test_what_each_variant_declares_is_accepted(document, tenant, name):
    variant = _variant(document, name)
    filters = resolve(document, variant["properties"]["filters"]["$ref"])
    body = {
        "object": name,
        "format": "csv",
        "filters": {
            member: _value(document, schema) for member, schema in filters["properties"].items()
        },
        "fields": ", ".join(OBJECTS[name].columns),
    }
    schema = {**document["paths"]["/v1/exports"]["post"]["requestBody"]["content"]}
    validator = jsonschema_rs.validator_for(
        {**schema["application/json"]["schema"], "components": document["components"]}
    )
    assert validator.is_valid(body), list(validator.iter_errors(body))[:3]
    response = await tenant.post("/v1/exports", json=body)
    assert response.status_code == 202, response.text
    assert set(response.json()["filters"]) == set(body["filters"])


@pytest.mark.parametrize("name", list(OBJECTS))
async def test_another_lists_filter_or_member_is_refused_as_declared(document, tenant, name):
    own = set(OBJECTS[name].filters.model_fields)
    foreign = sorted(
        {member for other in OBJECTS.values() for member in other.filters.model_fields} - own
    )
    members = set(OBJECTS[name].columns)
    alien = sorted({m for other in OBJECTS.values() for m in other.columns} - members)
    body = {"object": name, "filters": {foreign[0]: "x"}, "fields": alien[0]}
    body_schema = document["paths"]["/v1/exports"]["post"]["requestBody"]["content"]
    validator = jsonschema_rs.validator_for(
        {**body_schema["application/json"]["schema"], "components": document["components"]}
    )
    assert not validator.is_valid(body)
    response = await tenant.post("/v1/exports", json=body)
    assert failing_fields(response) == {f"filters.{foreign[0]}", "fields"}
