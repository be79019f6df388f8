"""A workspace's custom fields of one object, and the pure rules of their values: what a
request may send (`Definitions.validate`; `write`: merged into a record and bounded),
how values are stored on the record (keyed by field id), rendered (by key, live fields
only) and indexed (`value_rows`, the typed rows of custom_field_values), and how a
list's `custom.<key>=` filter reads its value.

No database here: service.load_definitions builds a Definitions with one query, and a
batch of rows (a bulk import) is validated against it without another."""

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import orjson

from homebase.custom_fields.records import ValueRecord
from homebase.kit.listquery import Prefixed
from homebase.kit.masking import mask_freeform

OBJECTS = ("contacts", "deals")
TYPES = ("text", "number", "date", "boolean", "single_select", "multi_select")
SELECTS = frozenset({"single_select", "multi_select"})
KEY_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
MAX_FIELDS = 100  # live fields per workspace and object
MAX_CHOICES = 100
MAX_CHOICE_LENGTH = 80
MAX_SELECTED = 50  # choices one multi_select value holds
# A record's `custom_fields` as compact UTF-8 JSON, as the API shows it: what one record
# carries into storage and into every page of its list (a page of 200 such records is
# 6.25 MiB at most; without the bound, 99 long multi_selects made one record 750 KB).
MAX_VALUES_BYTES = 32 * 1024
MAX_TEXT_LENGTH = 1000
MAX_NUMBER = 1e15  # |x|; doubles are exact for integers well past it
MAX_KEY_LENGTH = 255  # value_key's column; longer texts are keyed by their digest
HASHED = "sha256:"

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_NUMBER = re.compile(r"-?\d{1,16}(?:\.\d{1,16})?(?:[eE][+-]?\d{1,3})?", re.ASCII)


@dataclass(frozen=True, slots=True)
class Definition:
    id: str
    object: str
    key: str
    label: str
    type: str
    choices: tuple[str, ...] = ()


def _shown(key: str) -> str:
    """A key as an error names it: a hostile one is cut short."""
    return key if len(key) <= 64 else key[:64] + "..."


def text_key(text: str) -> str:
    if len(text) <= MAX_KEY_LENGTH and not text.startswith(HASHED):
        return text
    return HASHED + hashlib.sha256(text.encode()).hexdigest()


def number_key(number: float | int) -> str:
    value = float(number)
    return str(int(value)) if value.is_integer() else repr(value)


def _number(value: float | int) -> float | int:
    """The stored JSON number: an integer when it is one."""
    as_float = float(value)
    return int(as_float) if as_float.is_integer() else as_float


def _check_number(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "must be a JSON number"
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    if abs(value) > MAX_NUMBER:
        return f"must be between -{MAX_NUMBER:.0e} and {MAX_NUMBER:.0e}"
    return None


def _check_date(value: Any) -> str | None:
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return "must be a date as YYYY-MM-DD"
    try:
        date.fromisoformat(value)
    except ValueError:
        return "is not a real date"
    return None


@dataclass(frozen=True)
class Definitions:
    """The live custom fields of one object, oldest first."""

    object: str
    fields: tuple[Definition, ...] = ()
    by_key: dict[str, Definition] = field(init=False, repr=False)
    by_id: dict[str, Definition] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_key", {item.key: item for item in self.fields})
        object.__setattr__(self, "by_id", {item.id: item for item in self.fields})

    # -- a request's values -------------------------------------------------------------

    def validate(
        self, values: Mapping[str, Any] | None, *, prefix: str = "custom_fields"
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:  # values: JSON by field id
        """(clean, errors): `clean` maps each key sent to its stored value, or None to
        remove it (null, or an empty multi_select); `errors` is (field, message) for every
        key that is unknown or whose value its type refuses, the field named
        `<prefix>.<key>`. Pure: a batch of rows is validated against one lookup."""
        clean: dict[str, Any] = {}  # values: JSON by field id
        errors: list[tuple[str, str]] = []
        for key, value in (values or {}).items():
            definition = self.by_key.get(key)
            name = f"{prefix}.{_shown(key)}"
            if definition is None:
                errors.append((name, f"is not a custom field of {self.object}"))
                continue
            if value is None:
                clean[key] = None
                continue
            stored, problem = _value(definition, value)
            if problem is not None:
                errors.append((name, problem))
            else:
                clean[key] = stored
        return clean, errors

    def write(
        self,
        stored: Mapping[str, Any] | None,
        values: Mapping[str, Any] | None,
        *,
        prefix: str = "custom_fields",
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:  # values: JSON by field id
        """(merged, errors): `values` validated (as `validate`) and merged into the
        record's `stored` values (None for a new record), then bounded: the record may
        carry at most MAX_VALUES_BYTES (`size`) after the write, unless the write does not
        grow it (a record over the bound from before it existed can still be edited down).
        The bound's error names `prefix` itself. Pure, like `validate`."""
        if not values:  # a create without values (the hot path): nothing to check
            return self.live(stored), []
        clean, errors = self.validate(values, prefix=prefix)
        if errors:
            return {}, errors
        merged = self.merged(stored, clean)
        if clean:
            after = self.size(merged)
            if after > MAX_VALUES_BYTES and after > self.size(stored):
                errors.append(
                    (
                        prefix,
                        f"would take {after} bytes as compact UTF-8 JSON, over the "
                        f"{MAX_VALUES_BYTES} a record may carry",
                    )
                )
        return merged, errors

    def size(self, stored: Mapping[str, Any] | None) -> int:
        """The bytes of the record's `custom_fields` as compact UTF-8 JSON (no spaces,
        characters beyond ASCII as themselves), keyed by field key as a response shows
        them unmasked: what the MAX_VALUES_BYTES bound measures."""
        return len(orjson.dumps(self.render(stored, pii=True)))

    # -- stored on the record, keyed by field id ------------------------------------------

    def live(self, stored: Mapping[str, Any] | None) -> dict[str, Any]:  # values: JSON by field id
        """The stored values of live fields only (a deleted field's are dropped)."""
        return {fid: value for fid, value in (stored or {}).items() if fid in self.by_id}

    # values: JSON by field id
    def merged(self, stored: Mapping[str, Any] | None, clean: Mapping[str, Any]) -> dict[str, Any]:
        """The record's new stored values: `clean` merged into the live ones, None removing."""
        result = self.live(stored)
        for key, value in clean.items():
            fid = self.by_key[key].id
            if value is None:
                result.pop(fid, None)
            else:
                result[fid] = value
        return result

    # values: JSON by field id
    def render(self, stored: Mapping[str, Any] | None, *, pii: bool) -> dict[str, Any]:
        """The wire's `custom_fields`: live fields' values by key, in the fields' order.
        Text values are free text: without contacts:read:pii the phone numbers and email
        addresses inside them are masked (kit.masking.mask_freeform)."""
        if not stored:
            return {}
        shown: dict[str, Any] = {}  # values: JSON by field id
        for definition in self.fields:
            value = stored.get(definition.id)
            if value is None:
                continue
            if definition.type == "text" and not pii:
                value = mask_freeform(value)
            shown[definition.key] = value
        return shown

    def changed_keys(self, before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[str]:
        """Keys of the live fields whose stored value differs."""
        old = self.live(before)
        return [d.key for d in self.fields if old.get(d.id) != after.get(d.id)]

    # -- the typed rows (custom_field_values) ---------------------------------------------

    def value_rows(self, record_id: str, stored: Mapping[str, Any]) -> list[ValueRecord]:
        """The rows of custom_field_values for a record's stored values (without
        workspace_id, which the session adds)."""
        rows: list[ValueRecord] = []
        for fid, value in stored.items():
            definition = self.by_id.get(fid)
            if definition is not None:
                rows += _rows(definition, record_id, value)
        return rows

    # -- a list's filter ----------------------------------------------------------------

    def filter_key(self, key: str, raw: str) -> tuple[Definition | None, str]:
        """(definition, value_key) for `custom.<key>=raw`; (None, message) when the key
        is unknown or the value is not one of its type."""
        definition = self.by_key.get(key)
        if definition is None:
            return None, f"is not a custom field of {self.object}"
        kind = definition.type
        if kind == "number":
            if not _NUMBER.fullmatch(raw):
                return None, "must be a number, e.g. 250000 or 2.5"
            number = float(raw)
            problem = _check_number(number)
            return (None, problem) if problem else (definition, number_key(number))
        if kind == "date":
            problem = _check_date(raw)
            return (None, problem) if problem else (definition, raw)
        if kind == "boolean":
            if raw not in ("true", "false"):
                return None, "must be true or false"
            return definition, raw
        if kind in SELECTS:
            if raw not in definition.choices:
                return None, f"is not one of the field's choices: {_listed(definition.choices)}"
            return definition, raw
        text = raw.strip()
        if not text or len(text) > MAX_TEXT_LENGTH or "\x00" in text:
            return None, f"must be a text of 1 to {MAX_TEXT_LENGTH} characters"
        return definition, text_key(text)


def _listed(choices: Iterable[str]) -> str:
    shown = list(choices)
    text = ", ".join(shown[:10])
    return text + (f" (and {len(shown) - 10} more)" if len(shown) > 10 else "")


def _value(definition: Definition, value: Any) -> tuple[Any, str | None]:
    """(stored value, None) or (None, why it is refused)."""
    kind = definition.type
    if kind == "text":
        if not isinstance(value, str):
            return None, "must be a string"
        text = value.strip()
        if not text:
            return None, "must not be blank (send null to remove the value)"
        if len(text) > MAX_TEXT_LENGTH:
            return None, f"must be at most {MAX_TEXT_LENGTH} characters"
        if "\x00" in text:
            return None, "must not contain U+0000"
        return text, None
    if kind == "number":
        problem = _check_number(value)
        return (None, problem) if problem else (_number(value), None)
    if kind == "date":
        problem = _check_date(value)
        return (None, problem) if problem else (value, None)
    if kind == "boolean":
        return (value, None) if isinstance(value, bool) else (None, "must be true or false")
    if kind == "single_select":
        if not isinstance(value, str) or value not in definition.choices:
            return None, f"must be one of the field's choices: {_listed(definition.choices)}"
        return value, None
    # multi_select
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None, "must be an array of the field's choices"
    if len(value) > MAX_SELECTED:
        return None, f"must hold at most {MAX_SELECTED} choices"
    if len(set(value)) != len(value):
        return None, "must not repeat a choice"
    # Named by index, never repeated: an error repeats no submitted value (an import's
    # errors are read by keys without contacts:read:pii).
    unknown = [str(index) for index, item in enumerate(value) if item not in definition.choices]
    if unknown:
        which = f"items {_listed(unknown)} are" if unknown[1:] else f"item {unknown[0]} is"
        return None, f"{which} not among the field's choices: {_listed(definition.choices)}"
    return (list(value) if value else None), None


def _rows(definition: Definition, record_id: str, value: Any) -> list[ValueRecord]:
    """`value`: the record's stored value of the field, as Definitions.write checked it."""

    def row(
        key: str,
        number: float | None = None,
        day: date | None = None,
        boolean: bool | None = None,
    ) -> ValueRecord:
        return {
            "field_id": definition.id,
            "record_id": record_id,
            "object": definition.object,
            "value_key": key,
            "value_number": number,
            "value_date": day,
            "value_boolean": boolean,
        }

    kind = definition.type
    if kind == "multi_select":
        return [row(choice) for choice in value]
    if kind == "number":
        return [row(number_key(value), number=float(value))]
    if kind == "date":
        return [row(value, day=date.fromisoformat(value))]
    if kind == "boolean":
        return [row("true" if value else "false", boolean=value)]
    if kind == "text":
        return [row(text_key(value))]
    return [row(value)]  # single_select


def definition_of(row: Mapping[str, Any]) -> Definition:
    return Definition(
        id=row["id"],
        object=row["object"],
        key=row["key"],
        label=row["label"],
        type=row["type"],
        choices=tuple(row["choices"] or ()),
    )


# The contact and deal lists' `custom.<key>=value` (kit/listquery.py).
CUSTOM_FILTERS = Prefixed(
    prefix="custom.",
    name_pattern=KEY_PATTERN.strip("^$"),
    max_count=5,
    max_length=MAX_TEXT_LENGTH,
    description=(
        "**Custom field filters**: `custom.<key>=<value>` keeps the records whose custom "
        "field `<key>` (GET /v1/custom-fields) holds the value, for example "
        "`custom.price_max=1450000`, `custom.move_in=2027-03-01`, "
        "`custom.pre_approved=true`, `custom.financing=conventional`; for a multi_select "
        "field, the records whose value includes that choice. The value is read by the "
        "field's type: a number (`2.5`, `250000`), a date (YYYY-MM-DD), `true` or `false`, "
        "one of a select's choices, or a text (trimmed, matched exactly). Up to 5 of them, "
        "combined with AND and with the other filters. An unknown key or a value the type "
        "refuses is 400 naming `custom.<key>`."
    ),
)


class PageDefinitions:
    """The definitions a page of records renders with, read only when the page needs
    them: a record without custom values renders the same under any, so a page of such
    records (every page, in a workspace without custom fields) reads none, sparing every
    such page a statement. `known`: definitions the request read already
    (a `custom.<key>=` filter needs them first)."""

    def __init__(self, object: str, known: Definitions | None = None):
        self.current = known if known is not None else Definitions(object)
        self.read = known is not None

    def needed(self, rows: Sequence[Mapping[str, Any]]) -> bool:
        """Whether a row holds custom values and the definitions are not read yet (a
        stored value is a dict, or its JSON text on SQLite's stored path)."""
        return not self.read and any(row["custom_fields"] not in _NO_VALUES for row in rows)

    def use(self, definitions: Definitions) -> None:
        self.current, self.read = definitions, True


_NO_VALUES: tuple[Any, ...] = (None, {}, "{}", "null")
