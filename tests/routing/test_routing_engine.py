"""The routing engine, rule by rule, on plain data: conditions, methods, order, fallback,
and preview agreeing with live routing whenever no rotation is involved."""

import pytest

from homebase.routing.engine import (
    CONDITIONS_NOT_MET,
    DISABLED,
    NO_ELIGIBLE_AGENTS,
    OUTRANKED,
    SELECTED,
    LeadFacts,
    Member,
    RoutingState,
    Rule,
    decide,
    failing_conditions,
)

MEMBERS = [
    Member("usr_a", "Ana", "off_1", "team_1"),
    Member("usr_b", "Ben", "off_1", "team_1"),
    Member("usr_c", "Cy", "off_2", "team_2"),
]
LEAD = LeadFacts(
    source="Zillow",
    zip="94110",
    city="San Francisco",
    price=900_000,
    has_phone=True,
    tags=("buyer", "pre-approved"),
    stage="LEAD",
    office_id="off_1",
    team_id="team_1",
)


def agent_rule(rule_id="r1", position=1, agent="usr_a", **conditions) -> Rule:
    return Rule(rule_id, f"rule {rule_id}", position, "agent", conditions, {"agent_ids": [agent]})


@pytest.mark.parametrize(
    ("condition", "value"),
    [
        ("source", ["zillow", "Realtor.com"]),  # case-insensitive
        ("zip", ["941"]),  # prefix
        ("zip", ["94110"]),
        ("city", ["san francisco"]),
        ("price_min", 900_000),
        ("price_max", 900_000),
        ("has_phone", True),
        ("tags", ["seller", "BUYER"]),  # any of
        ("stage", ["LEAD", "HOT_LEAD"]),
        ("office_id", ["off_1"]),
        ("team_id", ["team_1"]),
    ],
)
def test_each_condition_matches(condition, value):
    assert failing_conditions({condition: value}, LEAD) == []


@pytest.mark.parametrize(
    ("condition", "value", "lead_change"),
    [
        ("source", ["Website"], {}),
        ("zip", ["100"], {}),
        ("zip", ["941"], {"zip": None}),
        ("city", ["Oakland"], {}),
        ("price_min", 1_000_000, {}),
        ("price_max", 500_000, {}),
        ("price_min", 1, {"price": None}),
        ("has_phone", True, {"has_phone": False}),
        ("has_phone", False, {}),
        ("tags", ["seller"], {}),
        ("stage", ["NURTURE"], {}),
        ("office_id", ["off_2"], {}),
        ("team_id", ["team_2"], {"team_id": None}),
    ],
)
def test_each_condition_fails_and_says_why(condition, value, lead_change):
    lead = LeadFacts(**{**LEAD.__dict__, **lead_change})
    [failed] = failing_conditions({condition: value}, lead)
    assert failed.condition == condition
    assert failed.expected == value
    assert failed.message


def test_all_conditions_must_hold_and_each_failure_is_listed():
    failed = failing_conditions({"source": ["Website"], "city": ["Oakland"], "zip": ["941"]}, LEAD)
    assert [item.condition for item in failed] == ["source", "city"]


def test_agent_method_assigns_the_named_member():
    decision = decide([agent_rule(agent="usr_b")], LEAD, MEMBERS, RoutingState())
    assert decision.assignee_id == "usr_b"
    assert decision.rule.id == "r1"
    assert "Ben" in decision.reason


def test_rules_apply_in_position_order_and_later_matches_are_outranked():
    rules = [
        agent_rule("r2", 2, "usr_b"),
        agent_rule("r1", 1, "usr_a"),
        agent_rule("r3", 3, "usr_c", source=["Website"]),
    ]
    decision = decide(rules, LEAD, MEMBERS, RoutingState())
    assert decision.assignee_id == "usr_a"
    outcomes = [(entry.rule.id, entry.outcome) for entry in decision.considered]
    assert outcomes == [("r1", SELECTED), ("r2", OUTRANKED), ("r3", CONDITIONS_NOT_MET)]
    assert decision.considered[2].failing_conditions[0].condition == "source"


def test_disabled_rule_and_rule_without_members_fall_through():
    rules = [
        Rule("r1", "off", 1, "agent", {}, {"agent_ids": ["usr_a"]}, enabled=False),
        Rule("r2", "gone", 2, "agent", {}, {"agent_ids": ["usr_gone"]}),
        agent_rule("r3", 3, "usr_c"),
    ]
    decision = decide(rules, LEAD, MEMBERS, RoutingState())
    assert decision.assignee_id == "usr_c"
    assert [entry.outcome for entry in decision.considered] == [
        DISABLED,
        NO_ELIGIBLE_AGENTS,
        SELECTED,
    ]


def test_round_robin_takes_the_turn_it_is_given():
    rule = Rule("rr", "rotate", 1, "round_robin", {}, {"agent_ids": ["usr_c", "usr_a"]})
    picks = [
        decide([rule], LEAD, MEMBERS, RoutingState(cursors={"rr": turn})).assignee_id
        for turn in range(5)
    ]
    assert picks == ["usr_c", "usr_a", "usr_c", "usr_a", "usr_c"]


def test_round_robin_preview_says_the_cursor_is_not_advanced():
    rule = Rule("rr", "rotate", 1, "round_robin", {}, {"agent_ids": ["usr_a", "usr_b"]})
    decision = decide([rule], LEAD, MEMBERS, RoutingState(cursors={"rr": 3}), preview=True)
    assert decision.assignee_id == "usr_b"
    assert decision.rotation_turn == 3
    assert "does not advance the rotation cursor" in decision.reason


def test_team_and_office_targets_expand_to_their_members_in_id_order():
    team = Rule("t", "team", 1, "round_robin", {}, {"team_id": "team_1"})
    office = Rule("o", "office", 1, "round_robin", {}, {"office_id": "off_2"})
    assert decide([team], LEAD, MEMBERS, RoutingState()).considered[0].eligible_agent_ids == (
        "usr_a",
        "usr_b",
    )
    assert decide([office], LEAD, MEMBERS, RoutingState()).assignee_id == "usr_c"


def test_first_available_picks_the_fewest_recent_leads_ties_by_pool_order():
    rule = Rule("fa", "first", 1, "first_available", {}, {"agent_ids": ["usr_b", "usr_a", "usr_c"]})
    state = RoutingState(recent_assignments={"usr_b": 2, "usr_a": 1, "usr_c": 1})
    assert decide([rule], LEAD, MEMBERS, state).assignee_id == "usr_a"
    assert decide([rule], LEAD, MEMBERS, RoutingState()).assignee_id == "usr_b"


def test_fallback_applies_last_and_only_when_nothing_else_does():
    fallback = Rule("fb", "fallback", 0, "agent", {}, {"agent_ids": ["usr_c"]}, is_fallback=True)
    matching = agent_rule("r1", 5, "usr_a")
    decision = decide([fallback, matching], LEAD, MEMBERS, RoutingState())
    assert decision.assignee_id == "usr_a" and not decision.used_fallback
    assert decision.considered[-1].rule.id == "fb"
    decision = decide(
        [fallback, agent_rule("r1", 5, "usr_a", source=["Website"])], LEAD, MEMBERS, RoutingState()
    )
    assert decision.assignee_id == "usr_c" and decision.used_fallback
    assert "fallback" in decision.reason


def test_no_rule_and_no_fallback_leaves_the_lead_unassigned():
    decision = decide([agent_rule(source=["Website"])], LEAD, MEMBERS, RoutingState())
    assert decision.assignee_id is None and decision.rule is None
    assert "unassigned" in decision.reason
    assert decide([], LEAD, MEMBERS, RoutingState()).assignee_id is None


@pytest.mark.parametrize(
    "rules",
    [
        [agent_rule()],
        [agent_rule(source=["Website"]), agent_rule("r2", 2, "usr_b", zip=["941"])],
        [Rule("fa", "first", 1, "first_available", {"tags": ["buyer"]}, {"team_id": "team_1"})],
        [Rule("fb", "fallback", 1, "agent", {}, {"agent_ids": ["usr_c"]}, is_fallback=True)],
    ],
)
def test_preview_and_live_agree_without_rotation(rules):
    state = RoutingState(recent_assignments={"usr_a": 3})
    live = decide(rules, LEAD, MEMBERS, state)
    preview = decide(rules, LEAD, MEMBERS, state, preview=True)
    assert (preview.assignee_id, preview.rule, preview.considered, preview.reason) == (
        live.assignee_id,
        live.rule,
        live.considered,
        live.reason,
    )
