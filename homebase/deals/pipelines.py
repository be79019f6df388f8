"""Pipelines and their stages, including the buyer and seller pipelines every workspace has."""

from homebase.db.tenancy import TenantSession
from homebase.deals import repository
from homebase.deals.records import PipelineRecord, StageRecord, StageSpec
from homebase.kit.ids import new_id

# key, name, stages as (key, name, probability)
DEFAULT_PIPELINES: tuple[tuple[str, str, tuple[tuple[str, str, int], ...]], ...] = (
    (
        "buyer",
        "Buyers",
        (
            ("new", "New", 10),
            ("touring", "Touring", 25),
            ("offer", "Offer submitted", 50),
            ("under_contract", "Under contract", 80),
            ("closed", "Closed", 100),
        ),
    ),
    (
        "seller",
        "Sellers",
        (
            ("appointment", "Listing appointment", 10),
            ("listed", "Listed", 30),
            ("offer", "Offer received", 60),
            ("under_contract", "Under contract", 85),
            ("closed", "Closed", 100),
        ),
    ),
)


async def ensure_defaults(session: TenantSession) -> None:
    """Creates the buyer and seller pipelines the first time a workspace needs them.
    Concurrent first uses are safe: the (workspace_id, key) constraint lets one insert win
    and the others skip, and only the winner adds the stages."""
    existing = await repository.pipeline_keys(session)
    for position, (key, name, stage_specs) in enumerate(DEFAULT_PIPELINES):
        if key in existing:
            continue
        pipeline_id = new_id("ppl")
        inserted = await repository.insert_pipeline_if_absent(
            session,
            {
                "id": pipeline_id,
                "key": key,
                "name": name,
                "position": position,
                "created_at": session.now(),
            },
        )
        if inserted:
            await repository.insert_stages(
                session,
                _stage_rows(
                    session,
                    pipeline_id,
                    [StageSpec(key=k, name=n, probability=p) for k, n, p in stage_specs],
                ),
            )


def _stage_rows(
    session: TenantSession, pipeline_id: str, specs: list[StageSpec]
) -> list[StageRecord]:
    return [
        {
            "id": new_id("stg"),
            "pipeline_id": pipeline_id,
            "key": spec["key"],
            "name": spec["name"],
            "position": position,
            "probability": spec.get("probability"),
            "created_at": session.now(),
        }
        for position, spec in enumerate(specs)
    ]


async def create_pipeline(
    session: TenantSession, *, key: str, name: str, position: int, stages: list[StageSpec]
) -> PipelineRecord:
    row: PipelineRecord = {
        "id": new_id("ppl"),
        "key": key,
        "name": name,
        "position": position,
        "created_at": session.now(),
    }
    await repository.insert_pipeline(session, row)
    await repository.insert_stages(session, _stage_rows(session, row["id"], stages))
    return row
