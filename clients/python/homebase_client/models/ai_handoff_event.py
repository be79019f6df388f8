from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ai_handoff_data import AiHandoffData


T = TypeVar("T", bound="AiHandoffEvent")


@_attrs_define
class AiHandoffEvent:
    """
    Attributes:
        event (str): Always `ai.handoff`.
        tenant_id (str):
        occurred_at (datetime.datetime):
        data (AiHandoffData):
    """

    event: str
    tenant_id: str
    occurred_at: datetime.datetime
    data: AiHandoffData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        tenant_id = self.tenant_id

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "tenantId": tenant_id,
                "occurredAt": occurred_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_handoff_data import AiHandoffData

        d = dict(src_dict)
        event = d.pop("event")

        tenant_id = d.pop("tenantId")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        data = AiHandoffData.from_dict(d.pop("data"))

        ai_handoff_event = cls(
            event=event,
            tenant_id=tenant_id,
            occurred_at=occurred_at,
            data=data,
        )

        ai_handoff_event.additional_properties = d
        return ai_handoff_event

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
