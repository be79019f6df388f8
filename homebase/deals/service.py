"""The deal rules: a deal sits in a stage of its own pipeline, links a contact of the same
workspace, and a stage move is an event and a timeline entry on that contact."""

from typing import Any, cast

from homebase.contacts import timeline
from homebase.custom_fields import service as custom
from homebase.custom_fields.definitions import Definitions
from homebase.db.tenancy import TenantSession
from homebase.deals import pipelines, repository
from homebase.deals.records import DealChanges, DealRecord, PipelineRecord, StageRecord
from homebase.deals.schemas import DealCreate, DealStatus, DealUpdate
from homebase.kit.errors import NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.money import from_hundredths, to_hundredths
from homebase.outbox.service import emit
from homebase.workspaces import references


async def get_or_404(session: TenantSession, deal_id: str) -> DealRecord:
    row = await repository.get(session, deal_id)
    if row is None:
        raise NotFound("No such deal.")
    return row


async def _pipeline_or_400(session: TenantSession, pipeline_id: str) -> PipelineRecord:
    row = await repository.get_pipeline(session, pipeline_id)
    if row is None:
        raise ValidationFailed.for_field("pipeline_id", "is not a pipeline of this workspace")
    return row


async def _stage_in(
    session: TenantSession, pipeline: PipelineRecord, stage_id: str | None
) -> StageRecord:
    if stage_id is None:
        stage = await repository.first_stage(session, pipeline["id"])
        if stage is None:
            raise ValidationFailed.for_field("pipeline_id", "has no stages")
        return stage
    stage = await repository.get_stage(session, stage_id)
    if stage is None or stage["pipeline_id"] != pipeline["id"]:
        raise ValidationFailed.for_field("stage_id", "is not a stage of the deal's pipeline")
    return stage


async def _check_contact(session: TenantSession, contact_id: str | None) -> None:
    # Another workspace's contact reads exactly like an unknown one.
    if contact_id is not None and (
        refusal := await references.contact_refusal(session, contact_id)
    ):
        raise ValidationFailed.for_field("contact_id", refusal)


# a request body's model_dump: the wire's names and values, to columns
def _money(values: dict[str, Any]) -> DealChanges:
    """Wire names and decimals to columns and hundredths."""
    renames = {
        "value": "value_cents",
        "commission_rate": "commission_rate_bp",
        "commission_amount": "commission_cents",
    }
    columns: dict[str, object] = {}
    for key, value in values.items():
        if key in renames:
            columns[renames[key]] = to_hundredths(value)
        elif key == "status":
            columns[key] = DealStatus(value).value
        else:
            columns[key] = value
    return cast(DealChanges, columns)


async def definitions(session: TenantSession, *, sent: object = True) -> Definitions:
    """The workspace's live custom fields of deals: what checks and renders a deal.
    `sent`: a new deal's custom_fields; without any, none are read (as for contacts)."""
    if not sent:
        return Definitions("deals")
    return await custom.load_definitions(session, "deals")


async def create_deal(
    session: TenantSession, body: DealCreate, *, fields: Definitions | None = None
) -> DealRecord:
    """`fields`: the custom fields, when the caller loaded them already (a batch)."""
    if fields is None:
        fields = await definitions(session, sent=body.custom_fields)
    stored_custom = custom.written(fields, None, values=body.custom_fields)
    await pipelines.ensure_defaults(session)
    pipeline = await _pipeline_or_400(session, body.pipeline_id)
    stage = await _stage_in(session, pipeline, body.stage_id)
    await _check_contact(session, body.contact_id)
    await references.check_owner(session, body.owner_id)
    now = session.now()
    values = _money(body.model_dump(exclude={"stage_id", "custom_fields"}))
    row: DealRecord = {
        "id": new_id("dea"),
        **values,  # type: ignore[typeddict-item]  # DealCreate's members, every column of one
        "custom_fields": stored_custom,
        "stage_id": stage["id"],
        "stage_changed_at": now,
        "closed_at": now if values["status"] != DealStatus.open else None,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert(session, row)
    await custom.write_new_values(session, fields, records=[(row["id"], stored_custom)])
    if row["contact_id"] is not None:
        await timeline.record(
            session,
            row["contact_id"],
            "deal_created",
            f"Deal created: {row['title']}"[:200],
            data={"deal_id": row["id"], "stage_id": stage["id"], "stage": stage["name"]},
        )
    return row


async def update_deal(
    session: TenantSession,
    deal_id: str,
    *,
    patch: DealUpdate,
    fields: Definitions | None = None,
) -> DealRecord:
    """custom_fields merges: a key sent replaces its value, null removes it. A change of
    custom values stamps updated_at like any other member (deals have no update event;
    deal.stage_changed is for stage moves)."""
    current = await get_or_404(session, deal_id)
    fields = fields if fields is not None else await definitions(session)
    merged = None
    if "custom_fields" in patch.model_fields_set:
        merged = custom.written(fields, current.get("custom_fields"), values=patch.custom_fields)
    requested = _money(patch.model_dump(include=patch.model_fields_set - {"custom_fields"}))
    pipeline_id = requested.get("pipeline_id", current["pipeline_id"])
    previous_stage = await repository.get_stage(session, current["stage_id"])
    if previous_stage is None:  # never: a deal's stage_id is a foreign key
        raise LookupError(f"deal {deal_id} has no stage {current['stage_id']}")
    stage = previous_stage
    if pipeline_id != current["pipeline_id"] or "stage_id" in requested:
        pipeline = await _pipeline_or_400(session, pipeline_id)
        stage = await _stage_in(session, pipeline, requested.get("stage_id"))
        requested["stage_id"] = stage["id"]
    if "contact_id" in requested and requested["contact_id"] != current["contact_id"]:
        await _check_contact(session, requested["contact_id"])
    if "owner_id" in requested and requested["owner_id"] != current["owner_id"]:
        await references.check_owner(session, requested["owner_id"])
    changes = cast(
        DealChanges,
        {key: value for key, value in requested.items() if current[key] != value},  # type: ignore[literal-required]
    )
    if merged is not None and fields.changed_keys(current.get("custom_fields"), merged):
        changes["custom_fields"] = merged
    if not changes:
        return current
    now = session.now()
    changes["updated_at"] = now
    if "stage_id" in changes:
        changes["stage_changed_at"] = now
    if "status" in changes:
        changes["closed_at"] = None if changes["status"] == DealStatus.open else now
    await repository.update(session, deal_id, changes)
    if "custom_fields" in changes:
        await custom.write_changed_values(
            session,
            fields,
            record_id=deal_id,
            before=current.get("custom_fields"),
            after=changes["custom_fields"] or {},
        )
    updated: DealRecord = {**current, **changes}
    if "stage_id" in changes:
        await _record_stage_change(session, updated, previous_stage, stage)
    return updated


async def _record_stage_change(
    session: TenantSession, deal: DealRecord, previous: StageRecord, stage: StageRecord
) -> None:
    data = {
        "id": deal["id"],
        "title": deal["title"],
        "contact_id": deal["contact_id"],
        "pipeline_id": deal["pipeline_id"],
        "previous_pipeline_id": previous["pipeline_id"],
        "previous_stage_id": previous["id"],
        "previous_stage": previous["name"],
        "stage_id": stage["id"],
        "stage": stage["name"],
        "status": deal["status"],
        "value": from_hundredths(deal["value_cents"]),
        "currency": deal["currency"],
    }
    await emit(session, "deal.stage_changed", data=data)
    if deal["contact_id"] is not None:
        await timeline.record(
            session,
            deal["contact_id"],
            "deal_stage_changed",
            f"Deal {deal['title']} moved from {previous['name']} to {stage['name']}"[:200],
            data=data,
        )
