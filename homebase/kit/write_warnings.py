"""Warnings on a write: what the service kept as sent but thinks the client should look
at (docs/decisions.md, "Phone numbers: E.164 and warnings"). A write with a warning
still succeeds; its answer carries `warnings` only when there is something to say, so
every other answer is as it was."""

from typing import Annotated, Final, Literal

from pydantic import Field, with_config
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.kit.phones import is_valid_number

PHONE_NOT_VALID: Final = "phone_not_valid"


PHONE_WARNING_EXAMPLE: JsonDict = {
    "field": "phone",
    "code": PHONE_NOT_VALID,
    "message": "is not a valid phone number (read in region US when it has no country "
    "code); it was kept as sent",
}


@with_config(json_schema_extra={"examples": [PHONE_WARNING_EXAMPLE]})
class WriteWarning(TypedDict):
    field: Annotated[str, Field(description="The member of the body the warning is about.")]
    code: Annotated[
        Literal["phone_not_valid"],
        Field(
            description="phone_not_valid: the phone is not a valid number (phonenumbers' "
            "is_valid_number, a number without a country code read in the workspace's "
            "default_phone_region); it is kept as sent, and phone_e164 is what could be read "
            "of it (null when nothing)."
        ),
    ]
    message: str


WARNINGS_DESCRIPTION = (
    "What the write kept as sent but may be wrong, one item per member; present only "
    "when there is something to say, whatever `fields` names. A warning never refuses "
    "the write."
)


def phone_warnings(phone: str | None, region: str, field: str = "phone") -> list[WriteWarning]:
    """A phone_not_valid warning for a phone sent that is not a valid number in `region`
    (none for an absent or null phone)."""
    if not phone or is_valid_number(phone, region):
        return []
    message = (
        f"is not a valid phone number (read in region {region} when it has no country "
        "code); it was kept as sent"
    )
    return [{"field": field, "code": PHONE_NOT_VALID, "message": message}]
