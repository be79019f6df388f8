"""Worker job: the automation engine's tick (engine.py). Run by `homebase worker` and
in-process under `homebase serve`."""

from homebase.automations import engine
from homebase.runtime import Runtime

STEPS_PER_TICK = 100


async def tick(runtime: Runtime) -> int:
    if not await engine.work_waiting(runtime):
        return 0
    return await engine.run_due(runtime, STEPS_PER_TICK)
