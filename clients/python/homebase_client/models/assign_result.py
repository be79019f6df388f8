from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.lead import Lead
    from ..models.rule_ref import RuleRef


T = TypeVar("T", bound="AssignResult")


@_attrs_define
class AssignResult:
    """
    Attributes:
        lead_id (str):
        assignee_id (None | str): The assignee now (unchanged when re-routing found nobody).
        previous_assignee_id (None | str):
        changed (bool): True when the assignee changed; only then are a timeline entry and lead.assigned written.
        method (None | str): manual, or the deciding rule's method; null when no rule applied.
        rule (None | RuleRef): The deciding rule when re-routed.
        rotation_turn (int | None): The round-robin turn taken, if any.
        reason (str):
        lead (Lead):
    """

    lead_id: str
    assignee_id: None | str
    previous_assignee_id: None | str
    changed: bool
    method: None | str
    rule: None | RuleRef
    rotation_turn: int | None
    reason: str
    lead: Lead
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.rule_ref import RuleRef

        lead_id = self.lead_id

        assignee_id: None | str
        assignee_id = self.assignee_id

        previous_assignee_id: None | str
        previous_assignee_id = self.previous_assignee_id

        changed = self.changed

        method: None | str
        method = self.method

        rule: dict[str, Any] | None
        if isinstance(self.rule, RuleRef):
            rule = self.rule.to_dict()
        else:
            rule = self.rule

        rotation_turn: int | None
        rotation_turn = self.rotation_turn

        reason = self.reason

        lead = self.lead.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lead_id": lead_id,
                "assignee_id": assignee_id,
                "previous_assignee_id": previous_assignee_id,
                "changed": changed,
                "method": method,
                "rule": rule,
                "rotation_turn": rotation_turn,
                "reason": reason,
                "lead": lead,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.lead import Lead
        from ..models.rule_ref import RuleRef

        d = dict(src_dict)
        lead_id = d.pop("lead_id")

        def _parse_assignee_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id"))

        def _parse_previous_assignee_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_assignee_id = _parse_previous_assignee_id(
            d.pop("previous_assignee_id")
        )

        changed = d.pop("changed")

        def _parse_method(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        method = _parse_method(d.pop("method"))

        def _parse_rule(data: object) -> None | RuleRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rule_type_0 = RuleRef.from_dict(data)

                return rule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RuleRef, data)

        rule = _parse_rule(d.pop("rule"))

        def _parse_rotation_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rotation_turn = _parse_rotation_turn(d.pop("rotation_turn"))

        reason = d.pop("reason")

        lead = Lead.from_dict(d.pop("lead"))

        assign_result = cls(
            lead_id=lead_id,
            assignee_id=assignee_id,
            previous_assignee_id=previous_assignee_id,
            changed=changed,
            method=method,
            rule=rule,
            rotation_turn=rotation_turn,
            reason=reason,
            lead=lead,
        )

        assign_result.additional_properties = d
        return assign_result

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
