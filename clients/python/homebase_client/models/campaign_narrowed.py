from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.campaign_status import CampaignStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="CampaignNarrowed")


@_attrs_define
class CampaignNarrowed:
    """A Campaign narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Campaign.

        Attributes:
            id (str):
            name (str | Unset):
            persona_id (None | str | Unset):
            automation_id (None | str | Unset):
            status (CampaignStatus | Unset):
            audience (None | str | Unset): Who the campaign is for, in words.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    name: str | Unset = UNSET
    persona_id: None | str | Unset = UNSET
    automation_id: None | str | Unset = UNSET
    status: CampaignStatus | Unset = UNSET
    audience: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        persona_id: None | str | Unset
        if isinstance(self.persona_id, Unset):
            persona_id = UNSET
        else:
            persona_id = self.persona_id

        automation_id: None | str | Unset
        if isinstance(self.automation_id, Unset):
            automation_id = UNSET
        else:
            automation_id = self.automation_id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        audience: None | str | Unset
        if isinstance(self.audience, Unset):
            audience = UNSET
        else:
            audience = self.audience

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if persona_id is not UNSET:
            field_dict["persona_id"] = persona_id
        if automation_id is not UNSET:
            field_dict["automation_id"] = automation_id
        if status is not UNSET:
            field_dict["status"] = status
        if audience is not UNSET:
            field_dict["audience"] = audience
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name", UNSET)

        def _parse_persona_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        persona_id = _parse_persona_id(d.pop("persona_id", UNSET))

        def _parse_automation_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        automation_id = _parse_automation_id(d.pop("automation_id", UNSET))

        _status = d.pop("status", UNSET)
        status: CampaignStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = CampaignStatus(_status)

        def _parse_audience(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        audience = _parse_audience(d.pop("audience", UNSET))

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        campaign_narrowed = cls(
            id=id,
            name=name,
            persona_id=persona_id,
            automation_id=automation_id,
            status=status,
            audience=audience,
            created_at=created_at,
            updated_at=updated_at,
        )

        campaign_narrowed.additional_properties = d
        return campaign_narrowed

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
