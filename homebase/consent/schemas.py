import re
from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    WithJsonSchema,
)
from pydantic.config import JsonDict

from homebase.kit import freeform
from homebase.kit.schema_rules import IN_RANGE_PATTERN, in_utc

# RFC 3986's characters only (`format: uri`): ASCII, "%" followed by two hex digits, at most
# one "#" (the fragment), and no "[" or "]" (valid only around an IPv6 host, which a
# form's address does not need).
_URI_CHAR = r"(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9\-._~:/?@!$&'()*+,;=])"
_URI = re.compile(rf"^[A-Za-z][A-Za-z0-9+.-]*:{_URI_CHAR}*(?:#{_URI_CHAR}*)?$")


def _uri(value: str) -> str:
    if not _URI.match(value):
        raise ValueError("must be an absolute URI such as https://example.com/form")
    return value


Uri = Annotated[
    str,
    StringConstraints(max_length=2048),
    AfterValidator(_uri),
    Field(json_schema_extra={"format": "uri", "pattern": _URI.pattern}),
]


# The spec's captured_at is a "timestamp, type otherwise unconstrained": a date-time string or
# a Unix time number, read as pydantic reads a datetime. A number's magnitude up to 2e10 is
# seconds, beyond it milliseconds (JavaScript's Date.now()); the bounds are year 1 and the
# end of year 9999 in milliseconds, past which the service answers 400. Read in UTC (one
# without an offset is UTC) by the range check every other time shares (kit/schema_rules.py):
# a time whose UTC leaves the years 1 to 9999 is a 400 naming it, as the pattern says.
UNIX_TIME_MIN, UNIX_TIME_MAX = -62_135_596_800_000, 253_402_300_799_999
Timestamp = Annotated[
    datetime,
    AfterValidator(in_utc),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "format": "date-time", "pattern": IN_RANGE_PATTERN},
                {"type": "number", "minimum": UNIX_TIME_MIN, "maximum": UNIX_TIME_MAX},
            ],
            "examples": ["2026-11-20T17:03:58Z", 1763658238],
        }
    ),
]


CONSENT_EXAMPLE: JsonDict = {
    "captured_at": "2026-11-20T17:03:58Z",
    "source_url": "https://demo-realty.example/contact",
    "ip": "203.0.113.7",
    "form_snapshot": {
        "consent_text": "I agree to be contacted by Demo Realty, "
        "including by automated text and AI calls.",
        "checkbox": True,
    },
    "ai_voice": True,
}


class ConsentIn(BaseModel):
    """Evidence of consent captured with the lead; every member is optional."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"required": [], "examples": [CONSENT_EXAMPLE]}
    )

    captured_at: Timestamp | None = Field(
        None,
        description="When the person consented; defaults to when it was recorded. An "
        "RFC 3339 date-time (without an offset, UTC) or a Unix time number: "
        "seconds (1763658238), or milliseconds when its magnitude passes "
        "20000000000 (1763658238000, as JavaScript's Date.now() gives). In UTC it must "
        "fall within the years 1 to 9999.",
    )
    source_url: Uri | None = None
    ip: Annotated[str, StringConstraints(max_length=64)] | None = None
    form_snapshot: Annotated[dict[str, Any], AfterValidator(freeform.bounded)] | None = Field(
        None,
        description="What the person saw and ticked, kept as evidence. " + freeform.DESCRIPTION,
    )
    ai_voice: StrictBool | None = Field(
        None,
        description="The person agreed to calls in an artificial (AI) voice, its own "
        "consent (an addition to the spec's object, docs/voice.md): the AI calls only a "
        "number whose unexpired artifact has ai_voice true. ai_outbound_allowed keeps "
        "meaning texts.",
    )


class ConsentOut(BaseModel):
    id: str
    captured_at: datetime
    recorded_at: datetime
    expires_at: datetime
    source_url: str | None
    ip: str | None
    ai_voice: bool | None
