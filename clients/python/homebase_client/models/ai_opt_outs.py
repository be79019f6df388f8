from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AiOptOuts")


@_attrs_define
class AiOptOuts:
    """
    Attributes:
        keyword (int): Opt-outs the opt-out rule read in a text (a keyword or a sentence; docs/messaging.md), before any
            AI.
        model (int): Opt-outs the model read (its answer's opt_out, or its opt_out tool).
    """

    keyword: int
    model: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        keyword = self.keyword

        model = self.model

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "keyword": keyword,
                "model": model,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        keyword = d.pop("keyword")

        model = d.pop("model")

        ai_opt_outs = cls(
            keyword=keyword,
            model=model,
        )

        ai_opt_outs.additional_properties = d
        return ai_opt_outs

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
