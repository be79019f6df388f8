from typing import Annotated

from fastapi import Depends, Query

from homebase.ai import stats
from homebase.ai.schemas import AiStats
from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import READ_ERRORS, error_responses
from homebase.kit.responses import Sent, respond
from homebase.kit.schema_rules import Moment

router = v1_router(prefix="/ai", tags=["ai"])

AutomationsRead = Annotated[Principal, require(Scope.automations_read)]
StatsFields = Annotated[Projection, Depends(field_selector(AiStats))]

STATS_DESCRIPTION = f"""\
What the AI responder did over a range: `from` (inclusive) to `to` (exclusive), at most
{stats.MAX_DAYS} days apart; by default the {stats.DEFAULT_DAYS} days up to now. Every
figure is about the range's conversations (the contacts with an inbound text in it) and
counts what happened to them in the range; `persona_id` limits them to one persona's
work. `from` not before `to`, a range over {stats.MAX_DAYS} days, a malformed time or a
`persona_id` that names no persona of this workspace answers 400 naming each parameter.
docs/ai.md, "Its numbers", defines each figure."""


@router.get(
    "/stats",
    response_model=AiStats,
    summary="The AI responder's numbers",
    description=STATS_DESCRIPTION,
    responses=error_responses(*READ_ERRORS),
)
async def get_ai_stats(
    principal: AutomationsRead,
    session: Tenant,
    fields: StatsFields,
    from_: Annotated[
        Moment | None, Query(alias="from", description="Inclusive; default: 30 days before to.")
    ] = None,
    to: Annotated[Moment | None, Query(description="Exclusive; default: now.")] = None,
    persona_id: Annotated[
        str | None,
        Query(max_length=40, description="Only this persona's work (GET /v1/personas)."),
    ] = None,
) -> Sent[AiStats]:
    window = await stats.window(session, from_, to, persona_id)
    return respond(await stats.stats(session, window), fields)
