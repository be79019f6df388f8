"""Worker jobs: the automation engine's tick (engine.py) and the campaigns' turns
(campaign_job.py). Run by `homebase worker` and
in-process under `homebase serve`."""

from homebase.automations import campaign_job, engine
from homebase.runtime import Runtime

STEPS_PER_TICK = 100


async def tick(runtime: Runtime) -> int:
    if not await engine.work_waiting(runtime):
        return 0
    return await engine.run_due(runtime, STEPS_PER_TICK)


CAMPAIGN_TURNS_PER_ROUND = 50


async def campaigns(runtime: Runtime) -> int:
    """The campaign job (campaign_job.py): each due campaign reaches its next contact."""
    if not await campaign_job.work_waiting(runtime):
        return 0
    return await campaign_job.run_due(runtime, CAMPAIGN_TURNS_PER_ROUND)
