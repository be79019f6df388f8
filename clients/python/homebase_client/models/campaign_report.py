from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.campaign_channel import CampaignChannel
from ..models.campaign_status import CampaignStatus

if TYPE_CHECKING:
    from ..models.campaign_counts import CampaignCounts


T = TypeVar("T", bound="CampaignReport")


@_attrs_define
class CampaignReport:
    """
    Attributes:
        id (str):
        name (str):
        persona_id (None | str):
        automation_id (None | str):
        status (CampaignStatus):
        audience (None | str): Who the campaign is for, in words.
        goal (None | str): What the AI is to achieve with each contact, given to its prompt when it reaches them (up to
            1,000 characters).
        channel (CampaignChannel): How a campaign reaches a contact: a text, a call, or a text and then a call when
            the text draws no answer (the AI's first-touch path decides the call's time).
        rate_per_hour (int): At most this many contacts are reached an hour (1 to 3,600), spread evenly: one every 3600
            / rate_per_hour seconds.
        ends_at (datetime.datetime | None): From this time no contact is reached: those still pending are skipped
            (campaign_ended). Null: the campaign has no end date.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        counts (CampaignCounts):
    """

    id: str
    name: str
    persona_id: None | str
    automation_id: None | str
    status: CampaignStatus
    audience: None | str
    goal: None | str
    channel: CampaignChannel
    rate_per_hour: int
    ends_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    counts: CampaignCounts
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

        goal: None | str
        goal = self.goal

        channel = self.channel.value

        rate_per_hour = self.rate_per_hour

        ends_at: None | str
        if isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        counts = self.counts.to_dict()

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
                "goal": goal,
                "channel": channel,
                "rate_per_hour": rate_per_hour,
                "ends_at": ends_at,
                "created_at": created_at,
                "updated_at": updated_at,
                "counts": counts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_counts import CampaignCounts

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

        def _parse_goal(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        goal = _parse_goal(d.pop("goal"))

        channel = CampaignChannel(d.pop("channel"))

        rate_per_hour = d.pop("rate_per_hour")

        def _parse_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ends_at = _parse_ends_at(d.pop("ends_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        counts = CampaignCounts.from_dict(d.pop("counts"))

        campaign_report = cls(
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
            counts=counts,
        )

        campaign_report.additional_properties = d
        return campaign_report

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
