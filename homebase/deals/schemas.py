from datetime import date
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, with_config
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.custom_fields.schemas import (
    RENDERED_DESCRIPTION,
    VALUES_EXAMPLE,
    CustomFieldValues,
)
from homebase.kit.money import Amount, Currency, Percent
from homebase.kit.pagination import UpdatedAfter, updated_after_field
from homebase.kit.schema_rules import absent, not_blank
from homebase.kit.wire import WireDate, WireTime

Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
OwnerId = Annotated[str, StringConstraints(max_length=40)]
Title = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200), not_blank()
]


class DealStatus(StrEnum):
    open = "open"
    won = "won"
    lost = "lost"


_DEAL_EXAMPLE: JsonDict = {
    "title": "Reyes: 3-bed in Noe Valley",
    "pipeline_id": "ppl_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "stage_id": "stg_01jd3v6k8h2k3m4n5p6q7r8s9v",
    "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "value": "1450000.00",
    "currency": "USD",
    "expected_close_date": "2027-02-15",
    "owner_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "status": "open",
    "commission_rate": "2.50",
    "commission_amount": None,
}


class DealCreate(BaseModel):
    """pipeline_id and title are required. stage_id defaults to the pipeline's first stage."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_DEAL_EXAMPLE]})

    pipeline_id: Id
    stage_id: Id | None = Field(
        None, description="A stage of pipeline_id; defaults to its first stage."
    )
    title: Title
    contact_id: Id | None = Field(None, description="A contact of this workspace.")
    value: Amount | None = None
    currency: Currency = "USD"
    expected_close_date: date | None = None
    owner_id: OwnerId | None = None
    status: DealStatus = DealStatus.open
    commission_rate: Percent | None = None
    commission_amount: Amount | None = Field(
        None,
        description="Explicit commission; when null it is derived from value x commission_rate.",
    )
    custom_fields: CustomFieldValues | None = None


_NOT_NULL = ("pipeline_id", "stage_id", "title", "currency", "status")


class DealUpdate(BaseModel):
    """Any subset. pipeline_id, stage_id, title, currency and status may not be null; the
    rest accept null to clear them. Changing pipeline_id without stage_id moves the deal to
    the new pipeline's first stage. custom_fields may not be null either: it merges into
    the deal's (null for a key removes its value)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": [],
            "examples": [{"stage_id": "stg_01jd3v6k8h2k3m4n5p6q7r8s9w", "value": "1425000.00"}],
        },
    )

    pipeline_id: Id = absent(json_schema_extra={"type": "string"})
    stage_id: Id = absent(json_schema_extra={"type": "string"})
    title: Title = absent(json_schema_extra={"type": "string"})
    contact_id: Id | None = None
    value: Amount | None = None
    currency: Currency = absent(json_schema_extra={"type": "string"})
    expected_close_date: date | None = None
    owner_id: OwnerId | None = None
    status: DealStatus = absent(json_schema_extra={"type": "string"})
    commission_rate: Percent | None = None
    commission_amount: Amount | None = None
    custom_fields: CustomFieldValues = absent(json_schema_extra={"type": "object"})

    @field_validator(*_NOT_NULL, "custom_fields", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("may not be null")
        return value


# A deal as GET /v1/deals/{id} sends it (render.deal). No docstring: it would become the
# schema's description.
@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "dea_01jd3v6k8h2k3m4n5p6q7r8s9t",
                **_DEAL_EXAMPLE,
                "commission_amount": "36250.00",
                "custom_fields": {"financing": "conventional"},
                "stage_changed_at": "2026-11-20T17:04:05.123Z",
                "closed_at": None,
                "created_at": "2026-11-20T17:04:05.123Z",
                "updated_at": "2026-11-20T17:04:05.123Z",
            }
        ]
    }
)
class Deal(TypedDict):
    id: str
    title: str
    pipeline_id: str
    stage_id: str
    contact_id: Annotated[str | None, Field(description="Kept when the contact is anonymized.")]
    value: Annotated[str | None, Field(description="Decimal string in major units.")]
    currency: Annotated[str, Field(description="ISO 4217.")]
    expected_close_date: WireDate | None
    owner_id: str | None
    status: DealStatus
    commission_rate: Annotated[str | None, Field(description="Percent, decimal string.")]
    commission_amount: Annotated[
        str | None,
        Field(description="Explicit, or value x commission_rate rounded half up to the cent."),
    ]
    custom_fields: Annotated[
        # the live custom fields, rendered: JSON of members the workspace defines
        dict[str, Any],
        Field(description=RENDERED_DESCRIPTION, examples=[VALUES_EXAMPLE]),
    ]
    stage_changed_at: WireTime
    closed_at: Annotated[WireTime | None, Field(description="When status became won or lost.")]
    created_at: WireTime
    updated_at: WireTime


class DealFilters(BaseModel):
    pipeline_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    stage_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    contact_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    owner_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    status: DealStatus | None = None
    updated_after: UpdatedAfter | None = updated_after_field()


class PipelineStage(TypedDict):
    id: str
    key: str
    name: str
    position: Annotated[int, Field(description="Order within the pipeline, from 0.")]
    probability: Annotated[
        int | None, Field(description="Chance of closing from this stage, percent.")
    ]


# A pipeline as GET /v1/pipelines sends it (render.pipeline).
@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "ppl_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "key": "buyer",
                "name": "Buyers",
                "position": 0,
                "stages": [
                    {
                        "id": "stg_01jd3v6k8h2k3m4n5p6q7r8s9v",
                        "key": "new",
                        "name": "New",
                        "position": 0,
                        "probability": 10,
                    },
                    {
                        "id": "stg_01jd3v6k8h2k3m4n5p6q7r8s9w",
                        "key": "touring",
                        "name": "Touring",
                        "position": 1,
                        "probability": 25,
                    },
                ],
                "created_at": "2026-11-20T17:04:05.123Z",
            }
        ]
    }
)
class Pipeline(TypedDict):
    id: str
    key: Annotated[str, Field(description="Stable name within the workspace: buyer, seller, ...")]
    name: str
    position: Annotated[int, Field(description="Display order among the workspace's pipelines.")]
    stages: Annotated[list[PipelineStage], Field(description="In order.")]
    created_at: WireTime
