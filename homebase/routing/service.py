"""Routing against the database: gather the engine's inputs, take a rotation turn when
routing live, and call the one `decide` that preview and live share."""

from dataclasses import replace
from datetime import timedelta
from typing import cast

from homebase.db.tenancy import TenantSession
from homebase.routing import repository
from homebase.routing.cache import routing_inputs
from homebase.routing.engine import (
    FIRST_AVAILABLE,
    ROUND_ROBIN,
    Considered,
    Decision,
    LeadFacts,
    Member,
    RoutingState,
    decide,
    eligible_agents,
    evaluate,
)
from homebase.routing.schemas import ConsideredRule, Outcome, RoutingPreview, RuleRef
from homebase.workspaces.lead_policy import LeadPolicy


async def route(
    session: TenantSession, lead: LeadFacts, *, preview: bool
) -> tuple[Decision, dict[str, Member]]:
    """Preview reads the rotation cursor; live routing takes a turn (advancing it)."""
    inputs = await routing_inputs(session)
    rules, members = inputs.rules, inputs.members
    by_id = {member.id: member for member in members}
    if not rules:
        return decide(rules, lead, members, RoutingState()), by_id
    evaluated = evaluate(rules, lead, members)
    state = await _state_for(session, evaluated[1], preview, inputs.settings)
    return decide(rules, lead, members, state, preview=preview, evaluated=evaluated), by_id


async def _state_for(
    session: TenantSession, winner: Considered | None, preview: bool, settings: LeadPolicy
) -> RoutingState:
    state = RoutingState()
    if winner is None:
        return state
    rule = winner.rule
    if rule.method == ROUND_ROBIN:
        turn = (
            await repository.read_cursor(session, rule.id)
            if preview
            else await repository.take_turn(session, rule.id, session.now())
        )
        return replace(state, cursors={rule.id: turn})
    if rule.method == FIRST_AVAILABLE:
        hours = settings.first_available_window_hours
        since = session.now() - timedelta(hours=hours)
        recent = await repository.recent_assignments(session, winner.eligible_agent_ids, since)
        return replace(state, recent_assignments=recent, first_available_window_hours=hours)
    return state


def rule_ref(decision: Decision) -> RuleRef | None:
    rule = decision.rule
    if rule is None:
        return None
    return {
        "id": rule.id,
        "name": rule.name,
        "position": rule.position,
        "method": rule.method,
        "is_fallback": rule.is_fallback,
    }


def considered_json(decision: Decision) -> list[ConsideredRule]:
    return [
        {
            "rule": {
                "id": entry.rule.id,
                "name": entry.rule.name,
                "position": entry.rule.position,
                "method": entry.rule.method,
                "is_fallback": entry.rule.is_fallback,
            },
            "outcome": cast(Outcome, entry.outcome),  # the engine's outcomes are these
            "failing_conditions": [
                {
                    "condition": failed.condition,
                    "expected": failed.expected,
                    "actual": failed.actual,
                    "message": failed.message,
                }
                for failed in entry.failing_conditions
            ],
            "eligible_agent_ids": list(entry.eligible_agent_ids),
        }
        for entry in decision.considered
    ]


def preview_json(decision: Decision, members: dict[str, Member]) -> RoutingPreview:
    assignee = members.get(decision.assignee_id) if decision.assignee_id else None
    return {
        "dry_run": True,
        "winning_rule": rule_ref(decision),
        "assignee": {"id": assignee.id, "name": assignee.name} if assignee else None,
        "assignee_id": decision.assignee_id,
        "method": decision.method,
        "used_fallback": decision.used_fallback,
        "rotation_turn": decision.rotation_turn,
        "rotation_advanced": False,
        "considered": considered_json(decision),
        "reason": decision.reason,
    }


async def routed_members(session: TenantSession) -> frozenset[str]:
    """The ids of the current members routing can give leads: those an enabled rule names,
    or targets through their team or office (the rules and members as routing reads them,
    cached: routing/cache.py)."""
    inputs = await routing_inputs(session)
    return frozenset(
        member_id
        for rule in inputs.rules
        if rule.enabled
        for member_id in eligible_agents(rule, inputs.members)
    )
