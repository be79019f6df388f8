"""Rules a validator or service enforces, said in the OpenAPI document the way client
generators read them: a request a generated client builds from the
document must not be refused for a rule the document kept to itself."""

import re
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, AwareDatetime, BeforeValidator, Field, WithJsonSchema

# What min_length=1 after strip_whitespace=True asks: a character other than white space;
# and, as every text a request carries, no U+0000 anywhere (kit/nul.py), which an
# unanchored `\S` alone would let through.
NOT_BLANK = r"^[^\x00]*[^\s\x00][^\x00]*$"


def not_blank() -> Any:
    """For a string stripped before its min_length=1 check: "   " is refused."""
    return Field(json_schema_extra={"pattern": NOT_BLANK})


def absent(**kwargs: Any) -> Any:
    """Field(None, **kwargs) for a PATCH member that may be left out but never sent as null
    (the model refuses null before validation): None only when absent, which services
    tell by the fields set. Typed as the member (non-null) for the checker, as the
    document has it."""
    return Field(None, **kwargs)


def sent_together(*names: str) -> dict[str, Any]:
    """dependentRequired for members that are sent together or not at all (json_schema_extra
    of the model; say it in the description too: generators rarely read dependentRequired)."""
    return {
        "dependentRequired": {name: [other for other in names if other != name] for name in names}
    }


def exactly_one(*names: str) -> dict[str, Any]:
    """A `oneOf` saying that exactly one of the string members `names` is sent with a
    value (null counts as not sent): one branch per member, requiring it as a string, so
    both or neither match no single branch. openapi-typescript reads it as a union of
    `{<name>: string}`; two such rules go under the model's `allOf`."""
    return {
        "oneOf": [{"required": [name], "properties": {name: {"type": "string"}}} for name in names]
    }


def string_form(pattern: str, places: int | None = None) -> Any:
    """Field(json_schema_extra=...) giving the string branch of a number-or-string member
    (Decimal's schema in requests) the pattern the canonical string follows, and its number
    branch `multipleOf` 10**-places when the member keeps that many decimal places: a
    number with more is refused, so the document says it (generators that honour
    multipleOf build the value as exact decimal text, as schemathesis does)."""

    def extra(schema: dict[str, Any]) -> None:
        for option in schema.get("anyOf", []):
            if option.get("type") == "string":
                option["pattern"] = pattern
            elif option.get("type") == "number" and places is not None:
                option["multipleOf"] = 10.0**-places

    return Field(json_schema_extra=extra)


# Every time a request carries (a query filter such as `updated_after`, a body member such as
# `due_at`) is read by the one parser below, `Moment`: RFC 3339's date-time, what `format:
# date-time` means (a date, T, a time with seconds, and an offset: Z or +hh:mm / -hh:mm),
# as a string of at most MAX_MOMENT_LENGTH characters, within the years 1 to 9999 once in
# UTC (what the service compares and stores), and handed on in UTC. Pydantic alone also
# takes a number ("0.5" as Unix seconds), no seconds, or a time whose UTC overflows the
# year range (a 500 where it was converted later). The document states all of it: the
# pattern below, maxLength and the format, so a client builds only times the service takes.
MAX_MOMENT_LENGTH = 64
_DATE_TIME = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?"
    r"(?:[Zz]|[+-][0-9]{2}:[0-9]{2})"
)
# The only times whose UTC leaves the years 1 to 9999: on the first day of year 1 with an
# offset east of UTC, on the last day of 9999 with one west of it (an offset is less than
# a day, so no other day can cross). Refused whole, whatever the time of day, so the rule
# is one a pattern states; -00:00 and +00:00 are UTC itself.
_EDGES = r"0001-01-01[Tt][^+]*\+(?!00:00)|9999-12-31[Tt][^-]*-(?!00:00)"
# [0-9] rather than \d: the same characters in ECMA 262 and Python. Anchored whole, so it
# excludes U+0000 as every request string's pattern must (kit/openapi_requests.py).
MOMENT_PATTERN = f"^(?!{_EDGES}){_DATE_TIME}$"
# The range alone, for a time member with other accepted forms of its own (in_utc below).
IN_RANGE_PATTERN = f"^(?!{_EDGES})[^\\x00]*$"
RFC3339_DATE_TIME = re.compile(_DATE_TIME)
_OUT_OF_RANGE = re.compile(_EDGES)
MALFORMED_MOMENT = "Input should be an RFC 3339 date-time with an offset, e.g. 2026-11-20T17:00:00Z"
OUT_OF_RANGE = "is out of range: in UTC it must fall within the years 1 to 9999"


def _moment(value: Any) -> Any:
    if isinstance(value, datetime):  # built by code (an automation's task), not sent
        return value
    if not isinstance(value, str):
        raise ValueError(MALFORMED_MOMENT)
    if len(value) > MAX_MOMENT_LENGTH:
        raise ValueError(f"must be at most {MAX_MOMENT_LENGTH} characters")
    if not RFC3339_DATE_TIME.fullmatch(value):
        raise ValueError(MALFORMED_MOMENT)
    if _OUT_OF_RANGE.match(value):
        raise ValueError(OUT_OF_RANGE)
    return value


def in_utc(moment: datetime) -> datetime:
    """The moment in UTC (a naive one is UTC already); a ValueError naming the range when
    its UTC falls outside the years 1 to 9999. For a member whose accepted forms are its
    own (a consent's captured_at also takes a Unix time); Moment's pattern keeps every
    value it passes inside the range."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise ValueError(OUT_OF_RANGE) from None


Moment = Annotated[
    AwareDatetime,
    BeforeValidator(_moment),
    AfterValidator(in_utc),
    WithJsonSchema(
        {
            "type": "string",
            "format": "date-time",
            "maxLength": MAX_MOMENT_LENGTH,
            "pattern": MOMENT_PATTERN,
        }
    ),
]
