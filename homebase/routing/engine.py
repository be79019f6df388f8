"""The routing engine: pure functions over plain data, no I/O.

rules + lead facts + members + routing state -> a Decision naming the winning rule, the
assignee, every rule considered with its failing conditions, and a reason. Preview and
live routing call the same `decide`; they differ only in the state they pass: preview
reads the rotation cursor, live routing first takes a turn atomically (service.py) and
passes that turn in, so whenever no rotation is involved both agree exactly.
"""

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

AGENT = "agent"
ROUND_ROBIN = "round_robin"
FIRST_AVAILABLE = "first_available"
METHODS = (AGENT, ROUND_ROBIN, FIRST_AVAILABLE)
Method = Literal["agent", "round_robin", "first_available"]  # METHODS, for annotations
assert get_args(Method) == METHODS, "Method names METHODS, in order"

# How each rule fared, in the order the engine considered them.
SELECTED = "selected"
CONDITIONS_NOT_MET = "conditions_not_met"
NO_ELIGIBLE_AGENTS = "no_eligible_agents"
OUTRANKED = "outranked"  # conditions met, but an earlier rule was selected
DISABLED = "disabled"


@dataclass(frozen=True)
class LeadFacts:
    source: str
    zip: str | None = None
    city: str | None = None
    price: float | None = None
    has_phone: bool = True
    tags: tuple[str, ...] = ()
    stage: str | None = None
    office_id: str | None = None
    team_id: str | None = None


@dataclass(frozen=True)
class Member:
    id: str
    name: str
    office_id: str | None = None
    team_id: str | None = None


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    position: int
    method: str
    conditions: Mapping[str, Any] = field(default_factory=dict)
    targets: Mapping[str, Any] = field(default_factory=dict)
    enabled: bool = True
    is_fallback: bool = False


@dataclass(frozen=True)
class RoutingState:
    """cursors: turns already taken per round-robin rule; recent_assignments: leads each
    member received within the first-available window."""

    cursors: Mapping[str, int] = field(default_factory=dict)
    recent_assignments: Mapping[str, int] = field(default_factory=dict)
    first_available_window_hours: int = 24


@dataclass(frozen=True)
class FailedCondition:
    condition: str
    expected: Any
    actual: Any
    message: str


@dataclass(frozen=True)
class Considered:
    rule: Rule
    outcome: str
    failing_conditions: tuple[FailedCondition, ...] = ()
    eligible_agent_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    rule: Rule | None
    assignee_id: str | None
    considered: tuple[Considered, ...]
    reason: str
    rotation_turn: int | None = None
    used_fallback: bool = False

    @property
    def method(self) -> str | None:
        return self.rule.method if self.rule else None


def _folded(values: Iterable[str]) -> set[str]:
    return {value.strip().casefold() for value in values}


def _one_of(name: str, expected: list[str], actual: str | None) -> FailedCondition | None:
    if actual is not None and actual.strip().casefold() in _folded(expected):
        return None
    shown = "missing" if actual is None else f"'{actual}'"
    return FailedCondition(name, expected, actual, f"{name} is {shown}, not one of {expected}")


def _zip(expected: list[str], actual: str | None) -> FailedCondition | None:
    if actual is not None and any(actual.strip().startswith(prefix) for prefix in expected):
        return None
    shown = "missing" if actual is None else f"'{actual}'"
    return FailedCondition(
        "zip", expected, actual, f"zip is {shown}, which starts with none of {expected}"
    )


def _price(conditions: Mapping[str, Any], price: float | None) -> list[FailedCondition]:
    failed = []
    for name, holds in (("price_min", operator.ge), ("price_max", operator.le)):
        bound = conditions.get(name)
        if bound is None:
            continue
        if price is None:
            failed.append(FailedCondition(name, bound, None, f"price is missing ({name} {bound})"))
        elif not holds(price, bound):
            relation = "below" if name == "price_min" else "above"
            failed.append(
                FailedCondition(name, bound, price, f"price {price:g} is {relation} {bound:g}")
            )
    return failed


def failing_conditions(conditions: Mapping[str, Any], lead: LeadFacts) -> list[FailedCondition]:
    """Every condition of a rule that the lead does not meet; empty means the rule matches."""
    failed: list[FailedCondition | None] = []
    for name in ("source", "city", "stage", "office_id", "team_id"):
        if conditions.get(name):
            failed.append(_one_of(name, list(conditions[name]), getattr(lead, name)))
    if conditions.get("zip"):
        failed.append(_zip(list(conditions["zip"]), lead.zip))
    failed.extend(_price(conditions, lead.price))
    if conditions.get("has_phone") is not None and conditions["has_phone"] != lead.has_phone:
        failed.append(
            FailedCondition(
                "has_phone",
                conditions["has_phone"],
                lead.has_phone,
                f"has_phone is {str(lead.has_phone).lower()}",
            )
        )
    if conditions.get("tags") and not _folded(conditions["tags"]) & _folded(lead.tags):
        failed.append(
            FailedCondition(
                "tags",
                list(conditions["tags"]),
                list(lead.tags),
                f"tags {list(lead.tags)} include none of {list(conditions['tags'])}",
            )
        )
    return [item for item in failed if item is not None]


def eligible_agents(rule: Rule, members: Sequence[Member]) -> tuple[str, ...]:
    """The rule's targets that are current members: its named agents in the order given,
    then members of its team and office in id order."""
    known = {member.id for member in members}
    pool = [agent for agent in rule.targets.get("agent_ids", ()) if agent in known]
    team_id, office_id = rule.targets.get("team_id"), rule.targets.get("office_id")
    for member in sorted(members, key=lambda member: member.id):
        if (team_id and member.team_id == team_id) or (office_id and member.office_id == office_id):
            pool.append(member.id)
    return tuple(dict.fromkeys(pool))


def _consider(
    rule: Rule, lead: LeadFacts, members: Sequence[Member], already_selected: bool
) -> Considered:
    if not rule.enabled:
        return Considered(rule, DISABLED)
    failed = tuple(failing_conditions(rule.conditions, lead))
    if failed:
        return Considered(rule, CONDITIONS_NOT_MET, failed)
    pool = eligible_agents(rule, members)
    if not pool:
        return Considered(rule, NO_ELIGIBLE_AGENTS)
    return Considered(rule, OUTRANKED if already_selected else SELECTED, (), pool)


def ordered(rules: Iterable[Rule]) -> list[Rule]:
    """Ordinary rules by position (then id), the fallback last."""
    return sorted(rules, key=lambda rule: (rule.is_fallback, rule.position, rule.id))


def evaluate(
    rules: Iterable[Rule], lead: LeadFacts, members: Sequence[Member]
) -> tuple[tuple[Considered, ...], Considered | None]:
    """Every rule considered, and the selected one (None when nothing applies)."""
    considered: list[Considered] = []
    winner: Considered | None = None
    for rule in ordered(rules):
        entry = _consider(rule, lead, members, winner is not None)
        considered.append(entry)
        if entry.outcome == SELECTED:
            winner = entry
    return tuple(considered), winner


def round_robin_pick(pool: Sequence[str], turn: int) -> str:
    return pool[turn % len(pool)]


def first_available_pick(pool: Sequence[str], recent: Mapping[str, int]) -> str:
    """Fewest leads in the window; ties go to the earlier member of the pool."""
    return min(enumerate(pool), key=lambda item: (recent.get(item[1], 0), item[0]))[1]


def decide(
    rules: Iterable[Rule],
    lead: LeadFacts,
    members: Sequence[Member],
    state: RoutingState,
    *,
    preview: bool = False,
    evaluated: tuple[tuple[Considered, ...], Considered | None] | None = None,
) -> Decision:
    """`evaluated`: what `evaluate(rules, lead, members)` returned, when the caller has it
    already (live routing evaluates first, to know which turn to take)."""
    considered, winner = evaluated if evaluated is not None else evaluate(rules, lead, members)
    if winner is None:
        return Decision(
            None,
            None,
            considered,
            "No rule matched and no fallback rule applies; the lead stays unassigned.",
        )
    rule, pool = winner.rule, winner.eligible_agent_ids
    names = {member.id: member.name for member in members}
    turn = None
    if rule.method == ROUND_ROBIN:
        turn = state.cursors.get(rule.id, 0)
        assignee = round_robin_pick(pool, turn)
    elif rule.method == FIRST_AVAILABLE:
        assignee = first_available_pick(pool, state.recent_assignments)
    else:
        assignee = pool[0]
    lead_in = (
        f"No ordinary rule matched; the fallback rule '{rule.name}'"
        if rule.is_fallback
        else f"Rule '{rule.name}' (position {rule.position}) matched and"
    )
    reason = f"{lead_in} {_how(rule.method, assignee, names, pool, turn, state, preview)}"
    return Decision(rule, assignee, considered, reason, turn, rule.is_fallback)


def _how(
    method: str,
    assignee: str,
    names: Mapping[str, str],
    pool: Sequence[str],
    turn: int | None,
    state: RoutingState,
    preview: bool,
) -> str:
    who = f"{names.get(assignee, assignee)} ({assignee})"
    if method == ROUND_ROBIN:
        if preview:
            return (
                f"rotates round-robin over {len(pool)} agents; the next turn ({turn}) "
                f"would go to {who}. This preview does not advance the rotation cursor, "
                "so the live pick may differ if other leads are routed first."
            )
        return f"rotates round-robin over {len(pool)} agents; turn {turn} went to {who}."
    if method == FIRST_AVAILABLE:
        count = state.recent_assignments.get(assignee, 0)
        return (
            f"assigns to the first available agent: {who}, with {count} lead(s) in the "
            f"last {state.first_available_window_hours} hours, the fewest of "
            f"{len(pool)} agents."
        )
    return f"assigns to {who}."
