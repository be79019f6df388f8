"""load-fixtures kinds `pipelines` and `deals` (docs/fixtures.md)."""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from homebase.db.tenancy import TenantSession
from homebase.deals import pipelines, repository, service
from homebase.deals.records import StageSpec
from homebase.deals.schemas import DealCreate
from homebase.fixtures.refs import Refs, resolve_ref
from homebase.kit.errors import AdminError
from homebase.models import Pipeline, PipelineStage

Key = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{1,40}$")]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]


class StageFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: Key
    name: Name
    probability: Annotated[int, Field(ge=0, le=100)] | None = None


class PipelineFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: Key
    name: Name
    stages: Annotated[list[StageFixture], Field(min_length=1, max_length=50)]


# `item`: a fixture file's JSON object, checked below (a boundary)
async def load_pipeline(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    data = PipelineFixture.model_validate(item)
    if len({stage.key for stage in data.stages}) != len(data.stages):
        raise AdminError("stage keys must be unique within the pipeline")
    await pipelines.ensure_defaults(session)
    existing = await repository.pipeline_keys(session)
    if data.key in existing:
        raise AdminError(f"the workspace already has a pipeline '{data.key}'")
    row = await pipelines.create_pipeline(
        session,
        key=data.key,
        name=data.name,
        position=len(existing),
        stages=[
            StageSpec(key=stage.key, name=stage.name, probability=stage.probability)
            for stage in data.stages
        ],
    )
    return row["id"]


async def _pipeline_id(session: TenantSession, refs: Refs, value: Any) -> str:
    """A ref, an id, or a pipeline key such as "buyer"."""
    if not isinstance(value, str):
        raise AdminError("pipeline: required (a ref, an id or a key such as 'buyer')")
    if value in refs or value.startswith("ppl_"):
        return resolve_ref(refs, value, "pipeline") or value
    table = Pipeline.__table__
    row = await session.fetch_one(session.select(table, table.c.id).where(table.c.key == value))
    if row is None:
        raise AdminError(f"pipeline: no pipeline with key '{value}'")
    row_id: str = row["id"]
    return row_id


async def _stage_id(session: TenantSession, pipeline_id: str, value: Any) -> str | None:
    """A stage id, or a stage key within the pipeline."""
    if value is None or (isinstance(value, str) and value.startswith("stg_")):
        return value
    table = PipelineStage.__table__
    row = await session.fetch_one(
        session.select(table, table.c.id).where(
            table.c.pipeline_id == pipeline_id, table.c.key == value
        )
    )
    if row is None:
        raise AdminError(f"stage: no stage '{value}' in that pipeline")
    row_id: str = row["id"]
    return row_id


# `item`: a fixture file's JSON object, checked by DealCreate (a boundary)
async def load_deal(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    await pipelines.ensure_defaults(session)
    pipeline_id = await _pipeline_id(session, refs, item.pop("pipeline", item.get("pipeline_id")))
    item["pipeline_id"] = pipeline_id
    item["stage_id"] = await _stage_id(
        session, pipeline_id, item.pop("stage", item.get("stage_id"))
    )
    for name, column in (("contact", "contact_id"), ("owner", "owner_id")):
        if name in item:
            item[column] = resolve_ref(refs, item.pop(name), name)
    row = await service.create_deal(session, DealCreate.model_validate(item))
    return row["id"]
