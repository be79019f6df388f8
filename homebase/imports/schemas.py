from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StrictBool,
    StringConstraints,
    field_validator,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.custom_fields.definitions import KEY_PATTERN
from homebase.kit.wire import WireTime

# Rows one import takes; a larger file goes in several (imports/csv_rows.py splits it).
MAX_ROWS = 5000


class ImportObject(StrEnum):
    CONTACTS = "contacts"
    LEADS = "leads"


class ImportMatchKey(StrEnum):
    EMAIL = "email"
    PHONE = "phone"
    NAME = "name"


class InvalidCell(StrEnum):
    """What a row's invalid value the import may leave out does to the row."""

    REFUSE = "refuse"
    SKIP = "skip"


class ImportRowKind(StrEnum):
    REFUSED = "refused"
    WARNING = "warning"


class ImportStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


# A row's member names, bounded here (the envelope) as the document states for every
# free-form object a request takes; the row itself is checked by the worker.
RowKey = Annotated[str, StringConstraints(max_length=128)]
DEFAULT_MATCH_ON = (ImportMatchKey.EMAIL, ImportMatchKey.PHONE)

_ROW_EXAMPLE: JsonDict = {
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "phone": "+1 415 555 0142",
    "stage": "HOT_LEAD",
    "tags": ["buyer"],
}


_ROWS = "the whole request stays within HOMEBASE_MAX_BODY_BYTES."
MAX_MAPPED_VALUES = 1000  # values one field's value_map maps
VALUE_MAP_FIELD = r"^(stage|owner_id|custom_fields\." + KEY_PATTERN.removeprefix("^")[:-1] + r")$"
ValueMapField = Annotated[str, StringConstraints(pattern=VALUE_MAP_FIELD)]
# No U+0000 (a key is text as any other): stated, since a key's schema is not walked for it
FoundValue = Annotated[str, StringConstraints(max_length=200, pattern=r"^[^\x00]*$")]
# What a found value becomes: the value the field takes (a stage, a member's id, a custom
# field's value) or null (no value: the member is left out of the row).
MappedValue = str | bool | int | float | list[str] | None
# {field: {value as found: value}}, as stored and applied
ValueMaps = dict[str, dict[str, MappedValue]]
ValueMap = dict[
    ValueMapField,
    Annotated[
        dict[FoundValue, MappedValue],
        # a found value is a key matching FoundValue's pattern only: pydantic states the
        # pattern alone, which leaves other keys allowed to a reader of the schema
        Field(max_length=MAX_MAPPED_VALUES, json_schema_extra={"additionalProperties": False}),
    ],
]
_VALUE_MAP_EXAMPLE: JsonDict = {
    "stage": {"Prospect": "LEAD", "Hot Prospect": "HOT_LEAD", "Closed": "PAST_CLIENT"},
    "custom_fields.pre_approved": {"Yes": True, "No": False, "Pending": None},
}
DRY_RUN = Field(
    False,
    description="Count what the import would do (created, updated, unchanged, refused, "
    "warnings, unmatchable) and write no record: no contact, lead or event. The dry run runs "
    "in the worker like an import, with progress, and does not take the workspace's one "
    "running import slot.",
    examples=[True],
)
ImportRows = Annotated[list[dict[RowKey, Any]], Field(min_length=1, max_length=MAX_ROWS)]


class _ImportCreateBase(BaseModel):
    """The members both objects take."""

    model_config = ConfigDict(extra="forbid")

    # Each variant narrows this to its Literal tag; declared here so it lists first.
    object: str


class ContactsImportCreate(_ImportCreateBase):
    """An import of contacts (scope contacts:write): each row is a POST /v1/contacts body,
    matched to an existing contact by `match_on`. `skip_routing` is for leads: false or
    left out here."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"object": "contacts", "rows": [_ROW_EXAMPLE], "match_on": ["email", "phone"]}
            ]
        }
    )

    object: Literal["contacts"] = Field(description="contacts (scope contacts:write).")
    rows: ImportRows = Field(
        description=f"1 to {MAX_ROWS} objects, each the body POST /v1/contacts takes; " + _ROWS
    )
    match_on: Annotated[
        list[ImportMatchKey], Field(max_length=3, json_schema_extra={"uniqueItems": True})
    ] = Field(
        default_factory=lambda: list(DEFAULT_MATCH_ON),
        description="How a row finds the contact it updates, in order of precedence: "
        "`email` (the same address, any case), `phone` (the same E.164 number), `name` (the "
        "same first and last name, any case, and the same owner; off by default). A row "
        "matching none creates a contact, and rows of the file that share a key merge into "
        "that one contact (later non-empty values win). A row carrying none of the keys is "
        'counted `unmatchable`; `[]` always creates. Default ["email", "phone"].',
        examples=[["email", "phone", "name"]],
    )
    value_map: ValueMap = Field(
        default_factory=dict,
        description="Values to replace before a row is checked: `{field: {value as found: "
        "value or null}}`, a field being `stage`, `owner_id` or `custom_fields.<key>`. A "
        "found value matches exactly, else ignoring case and surrounding spaces; null leaves "
        "the member out of the row. An `owner_id` that is no member's id is also looked up "
        "as a member's email (any case) or full name (when exactly one member has it). At "
        f"most {MAX_MAPPED_VALUES} values a field.",
        examples=[_VALUE_MAP_EXAMPLE],
        # the fields are the patterns' names only (pydantic states the pattern alone)
        json_schema_extra={"additionalProperties": False},
    )
    on_invalid_cell: InvalidCell = Field(
        InvalidCell.REFUSE,
        description="`refuse` (the default): a row with any invalid value is refused. "
        "`skip`: a custom field's invalid value, a stage that is not one, or an owner who is "
        "no member is left out and reported as a warning on the row, which is written; the "
        "row is refused only for another invalid value (an email that is not one) or when "
        "it names no one (no first name, last name, email or phone).",
        examples=["skip"],
    )
    dry_run: StrictBool = DRY_RUN
    skip_routing: Literal[False] = Field(
        False,
        description="Leads only (contacts are not routed): false or left out; true is 400 "
        "naming skip_routing.",
    )

    @field_validator("match_on")
    @classmethod
    def _once_each(cls, value: list[ImportMatchKey]) -> list[ImportMatchKey]:
        if len(set(value)) != len(value):
            raise ValueError("names each key at most once")
        return value

    @field_validator("skip_routing", mode="before")
    @classmethod
    def _leads_only(cls, value: Any) -> Any:
        # `is`, not ==: 0 equals False, and the document says a boolean.
        if value is not False:
            raise ValueError("applies to leads only: a contacts import takes false or nothing")
        return value


class LeadsImportCreate(_ImportCreateBase):
    """An import of leads (scope leads:write): each row is a POST /v1/leads body, always
    created and linked to a contact as POST /v1/leads links it (same phone, else same
    email). `match_on` is for contacts: refused here."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "object": "leads",
                    "rows": [
                        {
                            "first_name": "Dana",
                            "phone": "+1 415 555 0142",
                            "source": "Open house sign-in",
                        }
                    ],
                    "skip_routing": True,
                }
            ]
        }
    )

    object: Literal["leads"] = Field(description="leads (scope leads:write).")
    rows: ImportRows = Field(
        description=f"1 to {MAX_ROWS} objects, each the body POST /v1/leads takes; " + _ROWS
    )
    skip_routing: StrictBool = Field(
        False,
        description="Create every lead without routing it (a row's own skip_routing is "
        "honoured too).",
    )
    first_touch: StrictBool = Field(
        False,
        description="Queue the AI's first text for each lead whose consent allows AI outreach, "
        "as POST /v1/leads does, when the responder persona's first_touch is `text`; spaced "
        "at most HOMEBASE_AI_FIRST_TOUCH_PER_MINUTE (default 20) a minute per workspace. "
        "False (the default): an import texts nobody.",
    )
    dry_run: StrictBool = DRY_RUN


NewImport = ContactsImportCreate | LeadsImportCreate


class ImportCreate(RootModel[Annotated[NewImport, Field(discriminator="object")]]):
    """The import's envelope, one variant by `object` (`match_on` for contacts,
    `skip_routing` for leads), is checked at once (400 naming its members); each row is
    checked by the worker as POST /v1/contacts or POST /v1/leads checks its body, and a
    refused row is a result (GET /v1/imports/{id}/errors), not a 400."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"object": "contacts", "rows": [_ROW_EXAMPLE], "match_on": ["email", "phone"]}
            ]
        }
    )


@with_config(
    json_schema_extra={
        "examples": [
            {
                "rows": 5000,
                "created": 4100,
                "updated": 700,
                "unchanged": 150,
                "failed": 50,
                "warnings": 12,
                "unmatchable": 3,
            }
        ]
    }
)
class ImportCounts(TypedDict):
    rows: Annotated[int, Field(description="Rows in the import.")]
    created: int
    updated: Annotated[int, Field(description="Rows that matched a contact and changed it.")]
    unchanged: Annotated[
        int, Field(description="Rows that matched a contact already holding them.")
    ]
    failed: Annotated[int, Field(description="Rows refused; GET /v1/imports/{id}/errors says why.")]
    warnings: Annotated[
        int,
        Field(
            description="Rows written with a value left out or doubtful (an invalid cell "
            "skipped, a phone that is no valid number); GET /v1/imports/{id}/errors?kind=warning."
        ),
    ]
    unmatchable: Annotated[
        int,
        Field(
            description="Rows that carried none of match_on's keys: each created a contact, "
            "and importing the file again creates it again."
        ),
    ]


_JOB_EXAMPLE: JsonDict = {
    "id": "imp_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "object": "contacts",
    "status": "running",
    "match_on": ["email", "phone"],
    "skip_routing": False,
    "first_touch": False,
    "dry_run": False,
    "on_invalid_cell": "refuse",
    "file_name": None,
    "counts": {
        "rows": 5000,
        "created": 1800,
        "updated": 150,
        "unchanged": 40,
        "failed": 10,
        "warnings": 2,
        "unmatchable": 0,
    },
    "refused_by_reason": {
        "email: is not a valid email address": 7,
        "first_name: give at least one of first_name, last_name, email or phone": 3,
    },
    "progress": 0.4,
    "created_at": "2026-11-20T17:04:05.123Z",
    "started_at": "2026-11-20T17:04:05.456Z",
    "finished_at": None,
}


# An import as GET /v1/imports/{id} sends it (render.job). No docstring: it would become
# the schema's description.
@with_config(json_schema_extra={"examples": [_JOB_EXAMPLE]})
class ImportJob(TypedDict):
    id: str
    object: ImportObject
    status: Annotated[
        ImportStatus,
        Field(
            description="queued (waiting: a workspace runs one import at a time, oldest "
            "first), running, completed, or failed (the worker could not finish it; the rows "
            "counted were processed, the rest were not)."
        ),
    ]
    match_on: list[ImportMatchKey]
    skip_routing: bool
    first_touch: Annotated[
        bool,
        Field(
            description="Leads: the import queues the AI's first texts (false: it texts nobody)."
        ),
    ]
    dry_run: Annotated[bool, Field(description="Counts only: the import writes no record.")]
    on_invalid_cell: InvalidCell
    file_name: Annotated[
        str | None, Field(description="The uploaded file's name (a console import), else null.")
    ]
    counts: ImportCounts
    refused_by_reason: Annotated[
        dict[str, int],
        Field(
            description="Refused rows by reason: `field: message` (as GET "
            "/v1/imports/{id}/errors gives them) to the rows refused for it. A row refused "
            "for two reasons counts under both; a warning is no reason. Grows a batch at a "
            "time, as `counts`."
        ),
    ]
    progress: Annotated[float, Field(description="Rows processed / rows, from 0 to 1.")]
    created_at: WireTime
    started_at: WireTime | None
    finished_at: WireTime | None


@with_config(
    json_schema_extra={"examples": [{"field": "email", "message": "is not a valid email address"}]}
)
class ImportFieldError(TypedDict):
    field: Annotated[str, Field(description="The row's member, as a single create's 400 names it.")]
    message: Annotated[str, Field(description="The single create's message, word for word.")]


@with_config(
    json_schema_extra={
        "examples": [
            {
                "index": 17,
                "line": 19,
                "kind": "refused",
                "errors": [{"field": "email", "message": "is not a valid email address"}],
            }
        ]
    }
)
class ImportRowErrors(TypedDict):
    index: Annotated[int, Field(description="The row's position in the request's `rows`, from 0.")]
    line: Annotated[
        int | None,
        Field(
            description="A file's row: the CSV line where the row starts (the header is line "
            "1; a quoted newline counts as the file does). Null for rows sent as JSON."
        ),
    ]
    kind: Annotated[
        ImportRowKind,
        Field(
            description="refused (the row was not written) or warning (written, the values "
            "named left out or doubtful)."
        ),
    ]
    errors: list[ImportFieldError]


class ImportErrorFilters(BaseModel):
    kind: ImportRowKind | None = Field(
        None, description="Only the rows refused, or only those written with warnings."
    )
