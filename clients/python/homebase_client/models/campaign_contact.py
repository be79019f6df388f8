from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.campaign_contact_state import CampaignContactState
from ..models.campaign_skip_reason import CampaignSkipReason

T = TypeVar("T", bound="CampaignContact")


@_attrs_define
class CampaignContact:
    """
    Attributes:
        id (str):
        campaign_id (str):
        contact_id (str):
        state (CampaignContactState):
        skip_reason (CampaignSkipReason | None): Why it was skipped; null otherwise.
        enrolled_at (datetime.datetime):
        reached_at (datetime.datetime | None):
        skipped_at (datetime.datetime | None):
        replied_at (datetime.datetime | None): The contact's first message after the reach.
        booked_at (datetime.datetime | None): The first appointment booked after the reach.
        opted_out_at (datetime.datetime | None): When the contact opted out after the reach.
        updated_at (datetime.datetime):
    """

    id: str
    campaign_id: str
    contact_id: str
    state: CampaignContactState
    skip_reason: CampaignSkipReason | None
    enrolled_at: datetime.datetime
    reached_at: datetime.datetime | None
    skipped_at: datetime.datetime | None
    replied_at: datetime.datetime | None
    booked_at: datetime.datetime | None
    opted_out_at: datetime.datetime | None
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        campaign_id = self.campaign_id

        contact_id = self.contact_id

        state = self.state.value

        skip_reason: None | str
        if isinstance(self.skip_reason, CampaignSkipReason):
            skip_reason = self.skip_reason.value
        else:
            skip_reason = self.skip_reason

        enrolled_at = self.enrolled_at.isoformat()

        reached_at: None | str
        if isinstance(self.reached_at, datetime.datetime):
            reached_at = self.reached_at.isoformat()
        else:
            reached_at = self.reached_at

        skipped_at: None | str
        if isinstance(self.skipped_at, datetime.datetime):
            skipped_at = self.skipped_at.isoformat()
        else:
            skipped_at = self.skipped_at

        replied_at: None | str
        if isinstance(self.replied_at, datetime.datetime):
            replied_at = self.replied_at.isoformat()
        else:
            replied_at = self.replied_at

        booked_at: None | str
        if isinstance(self.booked_at, datetime.datetime):
            booked_at = self.booked_at.isoformat()
        else:
            booked_at = self.booked_at

        opted_out_at: None | str
        if isinstance(self.opted_out_at, datetime.datetime):
            opted_out_at = self.opted_out_at.isoformat()
        else:
            opted_out_at = self.opted_out_at

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "campaign_id": campaign_id,
                "contact_id": contact_id,
                "state": state,
                "skip_reason": skip_reason,
                "enrolled_at": enrolled_at,
                "reached_at": reached_at,
                "skipped_at": skipped_at,
                "replied_at": replied_at,
                "booked_at": booked_at,
                "opted_out_at": opted_out_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        campaign_id = d.pop("campaign_id")

        contact_id = d.pop("contact_id")

        state = CampaignContactState(d.pop("state"))

        def _parse_skip_reason(data: object) -> CampaignSkipReason | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                skip_reason_type_0 = CampaignSkipReason(data)

                return skip_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CampaignSkipReason | None, data)

        skip_reason = _parse_skip_reason(d.pop("skip_reason"))

        enrolled_at = datetime.datetime.fromisoformat(d.pop("enrolled_at"))

        def _parse_reached_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reached_at_type_0 = datetime.datetime.fromisoformat(data)

                return reached_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        reached_at = _parse_reached_at(d.pop("reached_at"))

        def _parse_skipped_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                skipped_at_type_0 = datetime.datetime.fromisoformat(data)

                return skipped_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        skipped_at = _parse_skipped_at(d.pop("skipped_at"))

        def _parse_replied_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                replied_at_type_0 = datetime.datetime.fromisoformat(data)

                return replied_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        replied_at = _parse_replied_at(d.pop("replied_at"))

        def _parse_booked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                booked_at_type_0 = datetime.datetime.fromisoformat(data)

                return booked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        booked_at = _parse_booked_at(d.pop("booked_at"))

        def _parse_opted_out_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                opted_out_at_type_0 = datetime.datetime.fromisoformat(data)

                return opted_out_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        opted_out_at = _parse_opted_out_at(d.pop("opted_out_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        campaign_contact = cls(
            id=id,
            campaign_id=campaign_id,
            contact_id=contact_id,
            state=state,
            skip_reason=skip_reason,
            enrolled_at=enrolled_at,
            reached_at=reached_at,
            skipped_at=skipped_at,
            replied_at=replied_at,
            booked_at=booked_at,
            opted_out_at=opted_out_at,
            updated_at=updated_at,
        )

        campaign_contact.additional_properties = d
        return campaign_contact

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
