from enum import StrEnum


class ConsideredRuleOutcome(StrEnum):
    CONDITIONS_NOT_MET = "conditions_not_met"
    DISABLED = "disabled"
    NO_ELIGIBLE_AGENTS = "no_eligible_agents"
    OUTRANKED = "outranked"
    SELECTED = "selected"

    def __str__(self) -> str:
        return str(self.value)
