from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.assignee import Assignee
    from ..models.considered_rule import ConsideredRule
    from ..models.rule_ref import RuleRef


T = TypeVar("T", bound="RoutingPreview")


@_attrs_define
class RoutingPreview:
    """
    Attributes:
        dry_run (bool): Always true: nothing was created, assigned, notified or advanced.
        winning_rule (None | RuleRef): The rule that decides; null when none applies.
        assignee (Assignee | None): Who a lead like this would go to now.
        assignee_id (None | str):
        method (None | str): The winning rule's method.
        used_fallback (bool): True when no ordinary rule matched and the fallback rule decided.
        rotation_turn (int | None): round_robin only: the turn the next live lead would take (not taken by a preview).
        rotation_advanced (bool): Always false for a preview.
        considered (list[ConsideredRule]): Every rule in evaluation order (ordinary rules by position, the fallback
            last), with its outcome.
        reason (str): A sentence explaining the decision; for round_robin it says that the cursor was not advanced.
    """

    dry_run: bool
    winning_rule: None | RuleRef
    assignee: Assignee | None
    assignee_id: None | str
    method: None | str
    used_fallback: bool
    rotation_turn: int | None
    rotation_advanced: bool
    considered: list[ConsideredRule]
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.assignee import Assignee
        from ..models.rule_ref import RuleRef

        dry_run = self.dry_run

        winning_rule: dict[str, Any] | None
        if isinstance(self.winning_rule, RuleRef):
            winning_rule = self.winning_rule.to_dict()
        else:
            winning_rule = self.winning_rule

        assignee: dict[str, Any] | None
        if isinstance(self.assignee, Assignee):
            assignee = self.assignee.to_dict()
        else:
            assignee = self.assignee

        assignee_id: None | str
        assignee_id = self.assignee_id

        method: None | str
        method = self.method

        used_fallback = self.used_fallback

        rotation_turn: int | None
        rotation_turn = self.rotation_turn

        rotation_advanced = self.rotation_advanced

        considered = []
        for considered_item_data in self.considered:
            considered_item = considered_item_data.to_dict()
            considered.append(considered_item)

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dry_run": dry_run,
                "winning_rule": winning_rule,
                "assignee": assignee,
                "assignee_id": assignee_id,
                "method": method,
                "used_fallback": used_fallback,
                "rotation_turn": rotation_turn,
                "rotation_advanced": rotation_advanced,
                "considered": considered,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.assignee import Assignee
        from ..models.considered_rule import ConsideredRule
        from ..models.rule_ref import RuleRef

        d = dict(src_dict)
        dry_run = d.pop("dry_run")

        def _parse_winning_rule(data: object) -> None | RuleRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                winning_rule_type_0 = RuleRef.from_dict(data)

                return winning_rule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RuleRef, data)

        winning_rule = _parse_winning_rule(d.pop("winning_rule"))

        def _parse_assignee(data: object) -> Assignee | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                assignee_type_0 = Assignee.from_dict(data)

                return assignee_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Assignee | None, data)

        assignee = _parse_assignee(d.pop("assignee"))

        def _parse_assignee_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id"))

        def _parse_method(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        method = _parse_method(d.pop("method"))

        used_fallback = d.pop("used_fallback")

        def _parse_rotation_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rotation_turn = _parse_rotation_turn(d.pop("rotation_turn"))

        rotation_advanced = d.pop("rotation_advanced")

        considered = []
        _considered = d.pop("considered")
        for considered_item_data in _considered:
            considered_item = ConsideredRule.from_dict(considered_item_data)

            considered.append(considered_item)

        reason = d.pop("reason")

        routing_preview = cls(
            dry_run=dry_run,
            winning_rule=winning_rule,
            assignee=assignee,
            assignee_id=assignee_id,
            method=method,
            used_fallback=used_fallback,
            rotation_turn=rotation_turn,
            rotation_advanced=rotation_advanced,
            considered=considered,
            reason=reason,
        )

        routing_preview.additional_properties = d
        return routing_preview

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
