"""Deal and pipeline queries. Every statement starts from the TenantSession."""

from typing import Any, cast

from homebase.custom_fields.repository import custom_filtered, custom_held, custom_params
from homebase.db.tenancy import TenantSession
from homebase.deals.records import DealChanges, DealRecord, PipelineRecord, StageRecord
from homebase.deals.schemas import DealFilters
from homebase.kit.pagination import keyset
from homebase.kit.statements import AnySelect
from homebase.models import Deal, Pipeline, PipelineStage
from homebase.paging import changes
from homebase.paging.listing import Listing

deals = Deal.__table__
pipelines = Pipeline.__table__
stages = PipelineStage.__table__


async def get(session: TenantSession, deal_id: str) -> DealRecord | None:
    row = await session.fetch_one(session.select(deals).where(deals.c.id == deal_id))
    return cast("DealRecord | None", row)


def _filters(statement: AnySelect, filters: DealFilters) -> AnySelect:
    for name in ("pipeline_id", "stage_id", "contact_id", "owner_id"):
        value = getattr(filters, name)
        if value is not None:
            statement = statement.where(deals.c[name] == value)
    if filters.status is not None:
        statement = statement.where(deals.c.status == filters.status.value)
    return statement


def list_statement(
    session: TenantSession,
    filters: DealFilters,
    *,
    after_id: str | None,
    limit: int,
    custom: tuple[tuple[str, str], ...] = (),
) -> AnySelect | tuple[AnySelect, dict[str, Any]]:  # SQLAlchemy's bound values
    """`custom`: (field id, value key) of each `custom.<key>=` filter: then the page is
    walked on the custom values' index (custom_fields/repository.custom_filtered)."""
    if not custom:
        return keyset(_filters(session.select(deals), filters), deals.c.id, after_id, limit)
    statement, key = custom_filtered(session, deals, (deals,), len(custom))
    return keyset(_filters(statement, filters), key, after_id, limit), custom_params(custom)


def changes_statement(
    session: TenantSession,
    filters: DealFilters,
    *,
    resuming: bool,
    custom: tuple[tuple[str, str], ...] = (),
) -> tuple[AnySelect, dict[str, Any]]:  # SQLAlchemy's bound values
    """A page of the list's `updated_after` walk (db/changes.page); each
    `custom` value is tested along it (custom_held)."""
    statement = _filters(session.select(deals), filters)
    statement = statement.where(*custom_held(deals, range(len(custom))))
    walk = changes.statement(statement, deals, session.dialect, resuming=resuming)
    return walk, custom_params(custom)


def listing(
    session: TenantSession, filters: DealFilters, *, custom: tuple[tuple[str, str], ...] = ()
) -> Listing[DealRecord]:
    """GET /v1/deals: newest first, and its `updated_after` walk (paging/listing.py);
    `custom` as list_statement's."""
    return Listing(
        lambda after_id, limit: list_statement(
            session, filters, after_id=after_id, limit=limit, custom=custom
        ),
        lambda resuming: changes_statement(session, filters, resuming=resuming, custom=custom),
    )


async def insert(session: TenantSession, values: DealRecord) -> None:
    await session.insert(deals, values)


async def update(session: TenantSession, deal_id: str, values: DealChanges) -> None:
    await session.execute(session.update(deals).where(deals.c.id == deal_id).values(**values))


async def get_pipeline(session: TenantSession, pipeline_id: str) -> PipelineRecord | None:
    row = await session.fetch_one(session.select(pipelines).where(pipelines.c.id == pipeline_id))
    return cast("PipelineRecord | None", row)


async def pipeline_keys(session: TenantSession) -> set[str]:
    rows = await session.fetch_all(session.select(pipelines, pipelines.c.key))
    return {row["key"] for row in rows}


async def get_stage(session: TenantSession, stage_id: str) -> StageRecord | None:
    row = await session.fetch_one(session.select(stages).where(stages.c.id == stage_id))
    return cast("StageRecord | None", row)


async def first_stage(session: TenantSession, pipeline_id: str) -> StageRecord | None:
    row = await session.fetch_one(
        session.select(stages)
        .where(stages.c.pipeline_id == pipeline_id)
        .order_by(stages.c.position, stages.c.id)
        .limit(1)
    )
    return cast("StageRecord | None", row)


async def stages_by_pipeline(session: TenantSession) -> dict[str, list[StageRecord]]:
    """All of the workspace's stages: pipelines are few, so one query serves a whole page."""
    rows = await session.fetch_all(
        session.select(stages).order_by(stages.c.pipeline_id, stages.c.position, stages.c.id)
    )
    grouped: dict[str, list[StageRecord]] = {}
    for row in cast("list[StageRecord]", rows):
        grouped.setdefault(row["pipeline_id"], []).append(row)
    return grouped


def pipelines_listing(session: TenantSession) -> Listing[PipelineRecord]:
    """GET /v1/pipelines: newest first."""
    return Listing.newest(session.select(pipelines), pipelines)


async def insert_pipeline_if_absent(session: TenantSession, values: PipelineRecord) -> bool:
    """True when inserted; False when the workspace already has a pipeline with this key
    (a concurrent request created it first). Inserts always carry the session's workspace."""
    return await session.insert_if_absent(pipelines, values, conflict=["workspace_id", "key"])


async def insert_pipeline(session: TenantSession, values: PipelineRecord) -> None:
    await session.insert(pipelines, values)


async def insert_stages(session: TenantSession, rows: list[StageRecord]) -> None:
    await session.insert(stages, rows)
