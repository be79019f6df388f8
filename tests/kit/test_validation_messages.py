"""kit/validation.py's backstop: a pydantic error whose message would repeat what was sent
says only that the value is invalid; lists of allowed values keep their text. The walk of
every operation is tests/test_errors_never_echo.py."""

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ValidationError

from homebase.kit.validation import INVALID, field_errors


def _careless(value: str) -> str:
    raise ValueError(f"{value} is not a phone number")


class Stage(StrEnum):
    HOT_LEAD = "HOT_LEAD"
    NURTURE = "NURTURE"


class Body(BaseModel):
    phone: Annotated[str, AfterValidator(_careless)] | None = None
    count: Annotated[int, AfterValidator(lambda value: _careless(str(value)))] | None = None
    stage: Stage | None = None
    channel: Literal["SMS", "EMAIL"] | None = None


def _items(body: dict) -> list[dict[str, str]]:
    try:
        Body.model_validate(body)
    except ValidationError as error:
        return field_errors(
            [{**item, "loc": ("body", *item["loc"])} for item in error.errors()], body
        )
    raise AssertionError("valid")


def test_a_message_that_repeats_the_value_sent_says_it_is_invalid():
    for body in ({"phone": "+16465550111"}, {"count": 16465550111}):
        (item,) = _items(body)
        assert item["message"] == INVALID and item["type"] == "value_error"
        assert "6465550111" not in str(item)


def test_lists_of_allowed_values_and_short_inputs_keep_their_message():
    (stage,) = _items({"stage": "NURT"})  # part of an allowed value, not an echo
    assert stage["message"] == "Input should be 'HOT_LEAD' or 'NURTURE'"
    (channel,) = _items({"channel": "SMSX"})
    assert channel["message"] == "Input should be 'SMS' or 'EMAIL'"
    (short,) = _items({"phone": "abc"})  # too short to be told from the message's words
    assert short["message"] == "abc is not a phone number"
