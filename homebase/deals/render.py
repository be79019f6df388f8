"""Records to wire payloads."""

from typing import cast

from homebase.custom_fields.definitions import Definitions
from homebase.deals.records import DealRecord, PipelineRecord, StageRecord
from homebase.deals.schemas import Deal, DealStatus, Pipeline, PipelineStage
from homebase.kit.clock import isoformat
from homebase.kit.money import from_hundredths, share


def commission_amount(row: DealRecord) -> int | None:
    stored = row["commission_cents"]
    if stored is not None:
        return stored
    if row["value_cents"] is not None and row["commission_rate_bp"] is not None:
        return share(row["value_cents"], row["commission_rate_bp"])
    return None


def deal(row: DealRecord, *, pii: bool, custom: Definitions) -> Deal:
    """`custom`: the live custom fields of deals; `pii`: the credential holds
    contacts:read:pii, else phone numbers and emails inside custom text are masked."""
    close = row["expected_close_date"]
    return {
        "id": row["id"],
        "title": row["title"],
        "pipeline_id": row["pipeline_id"],
        "stage_id": row["stage_id"],
        "contact_id": row["contact_id"],
        "value": from_hundredths(row["value_cents"]),
        "currency": row["currency"],
        "expected_close_date": close.isoformat() if close is not None else None,
        "owner_id": row["owner_id"],
        # stored as the enum's value, which is what the wire sends
        "status": cast(DealStatus, row["status"]),
        "commission_rate": from_hundredths(row["commission_rate_bp"]),
        "commission_amount": from_hundredths(commission_amount(row)),
        "custom_fields": custom.render(row.get("custom_fields"), pii=pii),
        "stage_changed_at": isoformat(row["stage_changed_at"]),
        "closed_at": isoformat(row["closed_at"]),
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }


def stage(row: StageRecord) -> PipelineStage:
    return {
        "id": row["id"],
        "key": row["key"],
        "name": row["name"],
        "position": row["position"],
        "probability": row["probability"],
    }


def pipeline(row: PipelineRecord, stages: list[StageRecord]) -> Pipeline:
    return {
        "id": row["id"],
        "key": row["key"],
        "name": row["name"],
        "position": row["position"],
        "stages": [stage(item) for item in stages],
        "created_at": isoformat(row["created_at"]),
    }
