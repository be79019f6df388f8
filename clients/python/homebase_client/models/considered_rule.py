from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.considered_rule_outcome import ConsideredRuleOutcome

if TYPE_CHECKING:
    from ..models.failed_condition_out import FailedConditionOut
    from ..models.rule_ref import RuleRef


T = TypeVar("T", bound="ConsideredRule")


@_attrs_define
class ConsideredRule:
    """
    Attributes:
        rule (RuleRef):
        outcome (ConsideredRuleOutcome): selected: this rule decides; conditions_not_met: see failing_conditions;
            no_eligible_agents: it matched but none of its targets is a member; outranked: it matched but an earlier rule
            was selected; disabled: switched off.
        failing_conditions (list[FailedConditionOut]):
        eligible_agent_ids (list[str]): The members its method would pick among (matching rules only).
    """

    rule: RuleRef
    outcome: ConsideredRuleOutcome
    failing_conditions: list[FailedConditionOut]
    eligible_agent_ids: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rule = self.rule.to_dict()

        outcome = self.outcome.value

        failing_conditions = []
        for failing_conditions_item_data in self.failing_conditions:
            failing_conditions_item = failing_conditions_item_data.to_dict()
            failing_conditions.append(failing_conditions_item)

        eligible_agent_ids = self.eligible_agent_ids

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rule": rule,
                "outcome": outcome,
                "failing_conditions": failing_conditions,
                "eligible_agent_ids": eligible_agent_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.failed_condition_out import FailedConditionOut
        from ..models.rule_ref import RuleRef

        d = dict(src_dict)
        rule = RuleRef.from_dict(d.pop("rule"))

        outcome = ConsideredRuleOutcome(d.pop("outcome"))

        failing_conditions = []
        _failing_conditions = d.pop("failing_conditions")
        for failing_conditions_item_data in _failing_conditions:
            failing_conditions_item = FailedConditionOut.from_dict(
                failing_conditions_item_data
            )

            failing_conditions.append(failing_conditions_item)

        eligible_agent_ids = cast(list[str], d.pop("eligible_agent_ids"))

        considered_rule = cls(
            rule=rule,
            outcome=outcome,
            failing_conditions=failing_conditions,
            eligible_agent_ids=eligible_agent_ids,
        )

        considered_rule.additional_properties = d
        return considered_rule

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
