from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StringConstraints,
    field_validator,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.custom_fields.definitions import (
    KEY_PATTERN,
    MAX_CHOICE_LENGTH,
    MAX_CHOICES,
    MAX_SELECTED,
    MAX_VALUES_BYTES,
)
from homebase.kit.schema_rules import NOT_BLANK, absent, not_blank
from homebase.kit.wire import WireTime


class CustomFieldObject(StrEnum):
    contacts = "contacts"
    deals = "deals"


class CustomFieldType(StrEnum):
    text = "text"
    number = "number"
    date = "date"
    boolean = "boolean"
    single_select = "single_select"
    multi_select = "multi_select"


Key = Annotated[str, StringConstraints(pattern=KEY_PATTERN)]
Label = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80), not_blank()
]
Choice = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_CHOICE_LENGTH, pattern=NOT_BLANK)
]
Choices = Annotated[
    list[Choice],
    Field(
        min_length=1,
        max_length=MAX_CHOICES,
        description=f"The values a select may hold: 1 to {MAX_CHOICES} distinct strings of 1 "
        f"to {MAX_CHOICE_LENGTH} characters, in order.",
        json_schema_extra={"uniqueItems": True},
    ),
]

_FIELD_EXAMPLE: JsonDict = {
    "object": "contacts",
    "key": "price_max",
    "label": "Maximum price",
    "type": "number",
}
_SELECT_EXAMPLE: JsonDict = {
    "object": "deals",
    "key": "financing",
    "label": "Financing",
    "type": "single_select",
    "choices": ["cash", "conventional", "fha", "va"],
}


_TYPES = (
    "What values hold: text (1 to 1000 characters, trimmed), number (a finite JSON number, "
    "at most 1e15 in magnitude), date (YYYY-MM-DD), boolean, single_select (one of "
    f"choices), multi_select (an array of at most {MAX_SELECTED} distinct choices). "
    "Never changes."
)


class _CustomFieldCreateBase(BaseModel):
    """The members every type shares."""

    model_config = ConfigDict(extra="forbid")

    object: CustomFieldObject = Field(description="Which records carry the field.")
    key: Key = Field(
        description="The name values are sent and filtered by (`custom_fields.<key>`, "
        "`custom.<key>=`): a lower-case letter, then up to 39 lower-case letters, digits "
        "or underscores. Immutable.",
        examples=["price_max"],
    )
    label: Label = Field(description="Display name, 1 to 80 characters.")


class CustomPlainFieldCreate(_CustomFieldCreateBase):
    """A text, number, date or boolean field: it has no choices."""

    model_config = ConfigDict(json_schema_extra={"examples": [_FIELD_EXAMPLE]})

    type: Literal["text", "number", "date", "boolean"] = Field(description=_TYPES)
    choices: None = Field(
        None,
        description="Only a select has choices: null or left out here (a list is 400 "
        "naming choices).",
    )

    @field_validator("choices", mode="before")
    @classmethod
    def _no_choices(cls, value: Any) -> Any:
        if value is not None:
            raise ValueError("is only for single_select and multi_select fields")
        return value


class CustomSelectFieldCreate(_CustomFieldCreateBase):
    """A single_select or multi_select field: its choices are required."""

    model_config = ConfigDict(json_schema_extra={"examples": [_SELECT_EXAMPLE]})

    type: Literal["single_select", "multi_select"] = Field(description=_TYPES)
    choices: Choices


NewCustomField = CustomPlainFieldCreate | CustomSelectFieldCreate


class CustomFieldCreate(RootModel[Annotated[NewCustomField, Field(discriminator="type")]]):
    """A new custom field of contacts or deals, one variant by `type`: a select
    (single_select, multi_select) requires `choices`, the other types take none. At most
    100 live fields per object (409 beyond); the key unique among the object's live
    fields (409) and never changed."""

    model_config = ConfigDict(json_schema_extra={"examples": [_FIELD_EXAMPLE, _SELECT_EXAMPLE]})


class CustomFieldUpdate(BaseModel):
    """Any subset of label and choices (a select's). Removing a choice that some record's
    value holds is refused (409, details.choices_in_use): change those values first."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": [],
            "examples": [{"label": "Financing type", "choices": ["cash", "conventional", "fha"]}],
        },
    )

    label: Label = absent(json_schema_extra={"type": "string"})
    choices: Choices = absent(json_schema_extra={"type": "array"})


_FIELD_RESPONSE: JsonDict = {
    "id": "cfd_01jd3v6k8h2k3m4n5p6q7r8s9t",
    **_SELECT_EXAMPLE,
    "created_at": "2026-11-20T17:04:05.123Z",
    "updated_at": "2026-11-20T17:04:05.123Z",
}


# A custom field as GET /v1/custom-fields/{id} sends it (render.custom_field). No
# docstring: it would become the schema's description.
@with_config(json_schema_extra={"examples": [_FIELD_RESPONSE]})
class CustomField(TypedDict):
    id: str
    object: CustomFieldObject
    key: str
    label: str
    type: CustomFieldType
    choices: Annotated[
        list[str] | None, Field(description="A select's choices, in order; else null.")
    ]
    created_at: WireTime
    updated_at: WireTime


@with_config(
    json_schema_extra={"examples": [{"id": "cfd_01jd3v6k8h2k3m4n5p6q7r8s9t", "deleted": True}]}
)
class CustomFieldDeleted(TypedDict):
    id: str
    deleted: Annotated[
        bool,
        Field(
            description="Always true: the field is gone now (its key is free again); its "
            "values are removed from records in the background."
        ),
    ]


class CustomFieldFilters(BaseModel):
    object: CustomFieldObject | None = Field(
        None,
        description="Only this object's fields (needs its read scope). Without it, the "
        "fields of every object the credential can read.",
        examples=["contacts"],
    )


# The member contacts and deals take and render (contacts/schemas.py, deals/schemas.py).
VALUES_DESCRIPTION = (
    "Custom field values by key (GET /v1/custom-fields). On create, the values to set; "
    "on update, merged into the record's: a key sent replaces its value, null removes it, "
    "keys not sent are kept. Each value is checked against its field's type; an unknown "
    "key or a bad value is 400 naming custom_fields.<key>. At most 100 members; a "
    f"multi_select value at most {MAX_SELECTED} choices. The record's custom_fields after "
    f"the write are at most {MAX_VALUES_BYTES} bytes as compact UTF-8 JSON (no spaces, "
    "characters as themselves), keyed as GET shows them unmasked: 400 naming "
    "custom_fields beyond, unless the write does not grow a record already past it."
)
VALUES_EXAMPLE: dict[str, Any] = {  # values: JSON by key
    "price_max": 1450000,
    "move_in": "2027-03-01",
    "financing": "conventional",
    "neighbourhoods": ["noe_valley", "bernal"],
    "pre_approved": True,
    "lender_note": "Call the lender before Friday.",
}
CustomFieldValues = Annotated[
    # a client's values by the workspace's keys: JSON checked against each field
    dict[str, Any],
    Field(
        max_length=100,
        description=VALUES_DESCRIPTION,
        examples=[VALUES_EXAMPLE],
        json_schema_extra={
            "additionalProperties": {
                "anyOf": [
                    {"type": "string"},
                    {"type": "number"},
                    {"type": "boolean"},
                    {"type": "array", "items": {"type": "string"}, "maxItems": MAX_SELECTED},
                    {"type": "null"},
                ]
            }
        },
    ),
]
RENDERED_DESCRIPTION = (
    "The record's custom field values by key, for the workspace's live custom fields "
    "(GET /v1/custom-fields); a field without a value is absent. Text values are masked "
    "by value (phone numbers and email addresses inside them) unless the credential "
    "holds contacts:read:pii."
)
