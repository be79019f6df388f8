"""The routing rule format (load-fixtures) and the routing-preview request and response."""

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    model_validator,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.routing.engine import Method


def _listed(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


Text80 = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Values = Annotated[list[Text80], BeforeValidator(_listed), Field(min_length=1, max_length=100)]


class RuleConditions(BaseModel):
    """Every condition given must hold (AND); a list condition holds when any value matches."""

    model_config = ConfigDict(extra="forbid")

    source: Values | None = None
    zip: Values | None = Field(None, description="Zip codes or prefixes: '941' matches 94110.")
    city: Values | None = None
    price_min: Annotated[float, Field(ge=0)] | None = None
    price_max: Annotated[float, Field(ge=0)] | None = None
    has_phone: bool | None = None
    tags: Values | None = Field(None, description="The lead has at least one of these tags.")
    stage: Values | None = None
    office_id: Values | None = None
    team_id: Values | None = None

    @model_validator(mode="after")
    def _price_range(self) -> "RuleConditions":
        if (
            self.price_min is not None
            and self.price_max is not None
            and self.price_min > self.price_max
        ):
            raise ValueError("price_min must not exceed price_max")
        return self


class RuleSpec(BaseModel):
    """One item of the `routing_rules` fixture kind (docs/leads.md, docs/fixtures.md)."""

    model_config = ConfigDict(extra="forbid")

    ref: str | None = None
    name: Text80
    method: Method
    conditions: RuleConditions = Field(default_factory=RuleConditions)
    agent: str | None = Field(None, description="method agent: the member (ref or id).")
    agents: list[str] = Field(default_factory=list, max_length=100)
    team: str | None = None
    office: str | None = None
    fallback: bool = False
    enabled: bool = True

    @model_validator(mode="after")
    def _targets(self) -> "RuleSpec":
        if self.method == "agent":
            if not self.agent or self.agents or self.team or self.office:
                raise ValueError(
                    "method 'agent' takes exactly one member in 'agent' "
                    "(and no agents, team or office)"
                )
        elif self.agent or not (self.agents or self.team or self.office):
            raise ValueError(
                f"method '{self.method}' picks among 'agents', a 'team' or an "
                "'office'; give at least one of them (not 'agent')"
            )
        if self.fallback and self.conditions.model_dump(exclude_none=True):
            raise ValueError("the fallback rule applies to every lead; it takes no conditions")
        return self


Zip = Annotated[str, StringConstraints(max_length=16)]
Tag = Annotated[str, StringConstraints(max_length=40)]
Id40 = Annotated[str, StringConstraints(max_length=40)]


class PreviewRequest(BaseModel):
    """The lead facts routing looks at; only source is required."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "source": "Zillow",
                    "zip": "94110",
                    "city": "San Francisco",
                    "price": 1250000,
                    "has_phone": True,
                    "tags": ["buyer"],
                    "stage": "LEAD",
                }
            ]
        },
    )

    source: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    zip: Zip | None = None
    city: Annotated[str, StringConstraints(max_length=80)] | None = None
    # strict: a JSON false is not a price of 0 (ints and floats still pass).
    price: Annotated[float, Field(ge=0, strict=True)] | None = None
    has_phone: StrictBool = Field(True, description="Defaults to true: every lead carries a phone.")
    tags: Annotated[list[Tag], Field(max_length=30)] = Field(default_factory=list)
    stage: Annotated[str, StringConstraints(max_length=32)] | None = None
    office_id: Id40 | None = None
    team_id: Id40 | None = None


class FailedConditionOut(TypedDict):
    condition: Annotated[
        str, Field(description="The rule condition that failed, e.g. source, zip, price_min.")
    ]
    # a rule's condition value and the lead's, as the rule and the lead hold them: any JSON
    expected: Annotated[Any, Field(description="What the rule asks for.")]
    actual: Annotated[Any, Field(description="What the lead has (null when absent).")]
    message: str


class RuleRef(TypedDict):
    id: str
    name: str
    position: int
    method: Annotated[str, Field(description="agent, round_robin or first_available.")]
    is_fallback: bool


Outcome = Literal["selected", "conditions_not_met", "no_eligible_agents", "outranked", "disabled"]


class ConsideredRule(TypedDict):
    rule: RuleRef
    outcome: Annotated[
        Outcome,
        Field(
            description=(
                "selected: this rule decides; conditions_not_met: see "
                "failing_conditions; no_eligible_agents: it matched but none of its "
                "targets is a member; outranked: it matched but an earlier rule was "
                "selected; disabled: switched off."
            )
        ),
    ]
    failing_conditions: list[FailedConditionOut]
    eligible_agent_ids: Annotated[
        list[str],
        Field(description="The members its method would pick among (matching rules only)."),
    ]


class Assignee(TypedDict):
    id: str
    name: str


_PREVIEW_EXAMPLE: JsonDict = {
    "dry_run": True,
    "winning_rule": {
        "id": "rrl_01jd3v6k8h2k3m4n5p6q7r8s9t",
        "name": "SF buyers from portals",
        "position": 1,
        "method": "round_robin",
        "is_fallback": False,
    },
    "assignee": {"id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t", "name": "Maya Chen"},
    "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "method": "round_robin",
    "used_fallback": False,
    "rotation_turn": 7,
    "rotation_advanced": False,
    "considered": [
        {
            "rule": {
                "id": "rrl_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "name": "SF buyers from portals",
                "position": 1,
                "method": "round_robin",
                "is_fallback": False,
            },
            "outcome": "selected",
            "failing_conditions": [],
            "eligible_agent_ids": ["usr_01jd3v6k8h2k3m4n5p6q7r8s9t"],
        }
    ],
    "reason": "Rule 'SF buyers from portals' (position 1) matched and rotates round-robin over "
    "2 agents; the next turn (7) would go to Maya Chen (usr_01jd...). This preview "
    "does not advance the rotation cursor, so the live pick may differ if other "
    "leads are routed first.",
}


@with_config(json_schema_extra={"examples": [_PREVIEW_EXAMPLE]})
class RoutingPreview(TypedDict):
    dry_run: Annotated[
        bool, Field(description="Always true: nothing was created, assigned, notified or advanced.")
    ]
    winning_rule: Annotated[
        RuleRef | None, Field(description="The rule that decides; null when none applies.")
    ]
    assignee: Annotated[Assignee | None, Field(description="Who a lead like this would go to now.")]
    assignee_id: str | None
    method: Annotated[str | None, Field(description="The winning rule's method.")]
    used_fallback: Annotated[
        bool,
        Field(description="True when no ordinary rule matched and the fallback rule decided."),
    ]
    rotation_turn: Annotated[
        int | None,
        Field(
            description="round_robin only: the turn the next live "
            "lead would take (not taken by a preview)."
        ),
    ]
    rotation_advanced: Annotated[bool, Field(description="Always false for a preview.")]
    considered: Annotated[
        list[ConsideredRule],
        Field(
            description="Every rule in evaluation order "
            "(ordinary rules by position, the "
            "fallback last), with its outcome."
        ),
    ]
    reason: Annotated[
        str,
        Field(
            description="A sentence explaining the decision; for round_robin it "
            "says that the cursor was not advanced."
        ),
    ]
