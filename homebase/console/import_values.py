"""The mapping page's value mapping: for a column mapped to the stage, the owner, or a
single-select, multi-select or boolean custom field, the distinct values the upload holds
(with counts, read once at the upload) and what each becomes, pre-filled from
imports/headers.py's synonyms, the field's choices and the workspace's members
(docs/imports-exports.md, "CSV import in the console" and "Value synonyms").

A choice is posted as `value_<column>_<n>`: "" keeps the value as found, else the JSON
of what it becomes (`null`: no value). Only the choices the page offered are taken.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from homebase.contacts.schemas import ContactStage
from homebase.imports import headers, rows
from homebase.imports.schemas import ValueMaps

KEEP = ""
NO_VALUE = "null"
SELECTS = ("single_select", "multi_select")
Choice = tuple[str, str]  # (posted value, label)


@dataclass(frozen=True)
class ValueRow:
    number: int
    value: str
    count: int
    chosen: str


@dataclass(frozen=True)
class ValueColumn:
    number: int  # the column's position
    column: str
    target: str  # the field it is mapped to
    values: list[ValueRow]
    options: list[Choice]


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _options(
    target: str, custom: Mapping[str, Mapping[str, Any]], members: Sequence[Mapping[str, Any]]
) -> tuple[list[Choice], Callable[[str], str]] | None:
    """The choices of a value-mappable field and its pre-fill; None for another field."""
    keep: Choice = (KEEP, "keep as found")
    none: Choice = (NO_VALUE, "no value")
    if target == "stage":

        def stage(value: str) -> str:
            found = headers.stage_of(value)
            return KEEP if found is None else _json(found.value)

        return [keep, none, *((_json(s.value), s.value) for s in ContactStage)], stage
    if target == "owner_id":
        table = rows.Members(members)

        def owner(value: str) -> str:
            found, _why = table.resolve(value)
            return KEEP if found is None else _json(found)

        people = [(_json(m["id"]), f"{m['name']} <{m['email']}>") for m in members]
        return [keep, none, *people], owner
    definition = custom.get(target.removeprefix("custom_fields."))
    if not target.startswith("custom_fields.") or definition is None:
        return None
    if definition["type"] == "boolean":

        def boolean(value: str) -> str:
            return _json(headers.boolean_of(value))

        return [keep, none, ("true", "yes"), ("false", "no")], boolean
    if definition["type"] in SELECTS:
        choices = [str(choice) for choice in definition.get("choices") or []]
        by_name = {headers.normalized(choice): choice for choice in choices}

        def select(value: str) -> str:
            found = by_name.get(headers.normalized(value))
            return KEEP if found is None else _json(found)

        return [keep, none, *((_json(choice), choice) for choice in choices)], select
    return None


def columns(
    names: Sequence[str],
    mapping: Mapping[str, str],
    found: Mapping[str, Mapping[str, int]],
    custom: Mapping[str, Mapping[str, Any]],
    members: Sequence[Mapping[str, Any]],
    posted: Callable[[str], str | None] | None = None,
) -> list[ValueColumn]:
    """The value tables of the mapped columns that have some (`found`: the upload's
    distinct values by column; `custom`: definitions by key; `posted`: the form's
    choices, read back on a re-render or the submit)."""
    tables = []
    for number, column in enumerate(names):
        target = mapping.get(column)
        values = found.get(column)
        made = _options(target, custom, members) if target and values else None
        if made is None or not values or target is None:
            continue
        options, prefill = made
        allowed = {value for value, _ in options}
        shown = []
        ordered = sorted(values.items(), key=lambda item: (-item[1], item[0]))
        for index, (value, count) in enumerate(ordered):
            choice = posted(f"value_{number}_{index}") if posted is not None else None
            chosen = choice if choice is not None and choice in allowed else prefill(value)
            shown.append(ValueRow(index, value, count, chosen))
        tables.append(ValueColumn(number, column, target, shown, options))
    return tables


def value_map(tables: Sequence[ValueColumn]) -> ValueMaps:
    """The choices as POST /v1/imports's value_map (the kept values left out)."""
    mapped: ValueMaps = {}
    for table in tables:
        for row in table.values:
            if row.chosen != KEEP:
                mapped.setdefault(table.target, {})[row.value] = orjson.loads(row.chosen)
    return mapped
