"""Deals and their pipelines as the code carries them: the `deals`, `pipelines` and
`pipeline_stages` tables' rows (models/deal.py, pipeline.py, pipeline_stage.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import date, datetime

from pydantic import JsonValue
from typing_extensions import TypedDict


class DealRecord(TypedDict):
    id: str
    pipeline_id: str
    stage_id: str
    contact_id: str | None
    title: str
    value_cents: int | None
    currency: str
    expected_close_date: date | None
    owner_id: str | None
    status: str  # a DealStatus value: open | won | lost
    commission_rate_bp: int | None
    commission_cents: int | None
    # values keyed by field id (custom_fields/), null for a deal that never had one
    custom_fields: dict[str, JsonValue] | None
    stage_changed_at: datetime
    closed_at: datetime | None
    created_at: datetime
    updated_at: datetime


class DealChanges(TypedDict, total=False):
    """Columns a write changes (service.update_deal), from the wire's names (service._money)."""

    pipeline_id: str
    stage_id: str
    contact_id: str | None
    title: str
    value_cents: int | None
    currency: str
    expected_close_date: date | None
    owner_id: str | None
    status: str
    commission_rate_bp: int | None
    commission_cents: int | None
    custom_fields: dict[str, JsonValue] | None
    stage_changed_at: datetime
    closed_at: datetime | None
    updated_at: datetime


class PipelineRecord(TypedDict):
    id: str
    key: str
    name: str
    position: int
    created_at: datetime


class StageRecord(TypedDict):
    id: str
    pipeline_id: str
    key: str
    name: str
    position: int
    probability: int | None
    created_at: datetime


class StageSpec(TypedDict, total=False):
    """A stage to create (pipelines.create_pipeline, a fixture's item): key and name."""

    key: str
    name: str
    probability: int | None
