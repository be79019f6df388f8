"""How the OpenAPI document says what `fields` does to a response.

A record's schema marks the members every full response carries as required; a response
narrowed by `fields` carries only id, pii_masked and the named members, so it would break
that schema. Each operation taking `fields` therefore answers
`anyOf: [<Record>, <Record>Narrowed]`, where the narrowed schema is the record's with only
the members `fields` cannot remove required (id, pii_masked, and members outside the
allow-list, such as a created task's `created`). A page's items get the same anyOf.

Why anyOf of two named schemas rather than one schema with nothing required:
a generated client parses a full response (no `fields`) into the fully typed record, and
a narrowed one into the narrowed type, instead of making every member of every record
optional for everyone (docs/decisions.md, "fields in the document").
"""

import copy
from typing import Any

from homebase.kit.fields import ALLOWED_BY_PATTERN, ALWAYS_INCLUDED

REF = "#/components/schemas/"
SUFFIX = "Narrowed"


def _fields_names(operation: dict[str, Any]) -> tuple[frozenset[str], list[str]] | None:
    """The names `fields` allows here and those its documented example asks for."""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") == "query" and parameter.get("name") == "fields":
            schema = parameter.get("schema", {})
            names = ALLOWED_BY_PATTERN.get(schema.get("pattern", ""))
            example = (schema.get("examples") or [""])[0]
            return None if names is None else (names, example.split(","))
    return None


def _narrowed(schemas: dict[str, Any], name: str, names: frozenset[str], asked: list[str]) -> str:
    target = name + SUFFIX
    if target in schemas:
        return target
    schema = copy.deepcopy(schemas[name])
    kept = [
        member
        for member in schema.get("required", [])
        if member in ALWAYS_INCLUDED or member not in names
    ]
    schema["required"] = kept
    schema["title"] = target
    schema["description"] = (
        f"A {name} narrowed by the `fields` query parameter: only "
        f"{', '.join(f'`{member}`' for member in kept)} are always present; every other "
        f"member only when `fields` names it. Without `fields` the answer is a whole {name}."
    )
    examples = schema.get("examples") or []
    if examples and isinstance(examples[0], dict):
        # The answer to the parameter's own example (`fields=first_name,last_name`).
        schema["examples"] = [
            {
                member: value
                for member, value in examples[0].items()
                if member in kept or member in asked
            }
        ]
    schemas[target] = schema
    return target


def _either(
    schemas: dict[str, Any], reference: str, names: frozenset[str], asked: list[str]
) -> dict[str, Any]:
    narrowed = _narrowed(schemas, reference.removeprefix(REF), names, asked)
    return {"anyOf": [{"$ref": reference}, {"$ref": REF + narrowed}]}


def add_narrowed_responses(document: dict[str, Any]) -> None:
    schemas = document.get("components", {}).get("schemas", {})
    for item in document.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            found = _fields_names(operation)
            if found is None:
                continue
            names, asked = found
            for status, response in operation.get("responses", {}).items():
                if not status.startswith("2"):
                    continue
                content = response.get("content", {}).get("application/json")
                reference = (content or {}).get("schema", {}).get("$ref", "")
                if not reference.startswith(REF):
                    continue
                record = schemas[reference.removeprefix(REF)]
                data = record.get("properties", {}).get("data", {})
                if data.get("type") == "array":  # a page: its items are the records
                    if "$ref" in data.get("items", {}):  # (not already done for another list)
                        data["items"] = _either(schemas, data["items"]["$ref"], names, asked)
                else:
                    content["schema"] = _either(schemas, reference, names, asked)
