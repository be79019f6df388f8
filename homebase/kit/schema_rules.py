"""Rules a validator or service enforces, said in the OpenAPI document the way client
generators read them: a request a generated client builds from the
document must not be refused for a rule the document kept to itself."""

import re
from typing import Annotated, Any

from pydantic import AwareDatetime, BeforeValidator, Field

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


# RFC 3339's date-time, what `format: date-time` means: a date, T, a time with seconds and
# an offset. Pydantic alone also takes a number ("0.5" as Unix seconds) or no seconds.
RFC3339_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})", re.ASCII
)


def _rfc3339(value: Any) -> Any:
    if isinstance(value, str) and not RFC3339_DATE_TIME.fullmatch(value):
        raise ValueError(
            "Input should be an RFC 3339 date-time with an offset, e.g. 2026-11-20T17:00:00Z"
        )
    return value


# A date-time query parameter: refuses what is not one before pydantic's lax
# parsing would read it as a timestamp.
QueryDateTime = Annotated[AwareDatetime, BeforeValidator(_rfc3339)]
