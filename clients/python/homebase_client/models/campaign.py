from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.campaign_status import CampaignStatus

T = TypeVar("T", bound="Campaign")


@_attrs_define
class Campaign:
    """
    Attributes:
        id (str):
        name (str):
        persona_id (None | str):
        automation_id (None | str):
        status (CampaignStatus):
        audience (None | str): Who the campaign is for, in words.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    persona_id: None | str
    automation_id: None | str
    status: CampaignStatus
    audience: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        persona_id: None | str
        persona_id = self.persona_id

        automation_id: None | str
        automation_id = self.automation_id

        status = self.status.value

        audience: None | str
        audience = self.audience

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "persona_id": persona_id,
                "automation_id": automation_id,
                "status": status,
                "audience": audience,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_persona_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        persona_id = _parse_persona_id(d.pop("persona_id"))

        def _parse_automation_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        automation_id = _parse_automation_id(d.pop("automation_id"))

        status = CampaignStatus(d.pop("status"))

        def _parse_audience(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        audience = _parse_audience(d.pop("audience"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        campaign = cls(
            id=id,
            name=name,
            persona_id=persona_id,
            automation_id=automation_id,
            status=status,
            audience=audience,
            created_at=created_at,
            updated_at=updated_at,
        )

        campaign.additional_properties = d
        return campaign

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
