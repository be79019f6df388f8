from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.campaign_channel import CampaignChannel
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
            goal (None | str | Unset): What the AI is to achieve with each contact, given to its prompt when it reaches them
                (up to 1,000 characters).
            channel (CampaignChannel | Unset): How a campaign reaches a contact: a text, a call, or a text and then a call
                when
                the text draws no answer (the AI's first-touch path decides the call's time).
            rate_per_hour (int | Unset): At most this many contacts are reached an hour (1 to 3,600), spread evenly: one
                every 3600 / rate_per_hour seconds.
            ends_at (datetime.datetime | None | Unset): From this time no contact is reached: those still pending are
                skipped (campaign_ended). Null: the campaign has no end date.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    name: str | Unset = UNSET
    persona_id: None | str | Unset = UNSET
    automation_id: None | str | Unset = UNSET
    status: CampaignStatus | Unset = UNSET
    audience: None | str | Unset = UNSET
    goal: None | str | Unset = UNSET
    channel: CampaignChannel | Unset = UNSET
    rate_per_hour: int | Unset = UNSET
    ends_at: datetime.datetime | None | Unset = UNSET
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

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel.value

        rate_per_hour = self.rate_per_hour

        ends_at: None | str | Unset
        if isinstance(self.ends_at, Unset):
            ends_at = UNSET
        elif isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

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
        if goal is not UNSET:
            field_dict["goal"] = goal
        if channel is not UNSET:
            field_dict["channel"] = channel
        if rate_per_hour is not UNSET:
            field_dict["rate_per_hour"] = rate_per_hour
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
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

        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))

        _channel = d.pop("channel", UNSET)
        channel: CampaignChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = CampaignChannel(_channel)

        rate_per_hour = d.pop("rate_per_hour", UNSET)

        def _parse_ends_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        ends_at = _parse_ends_at(d.pop("ends_at", UNSET))

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
            goal=goal,
            channel=channel,
            rate_per_hour=rate_per_hour,
            ends_at=ends_at,
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
