from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.campaign_contact_state import CampaignContactState
from ..models.campaign_skip_reason import CampaignSkipReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="CampaignContactNarrowed")


@_attrs_define
class CampaignContactNarrowed:
    """A CampaignContact narrowed by the `fields` query parameter: only `id` are always present; every other member only
    when `fields` names it. Without `fields` the answer is a whole CampaignContact.

        Attributes:
            id (str):
            campaign_id (str | Unset):
            contact_id (str | Unset):
            state (CampaignContactState | Unset):
            skip_reason (CampaignSkipReason | None | Unset): Why it was skipped; null otherwise.
            enrolled_at (datetime.datetime | Unset):
            reached_at (datetime.datetime | None | Unset):
            skipped_at (datetime.datetime | None | Unset):
            replied_at (datetime.datetime | None | Unset): The contact's first message after the reach.
            booked_at (datetime.datetime | None | Unset): The first appointment booked after the reach.
            opted_out_at (datetime.datetime | None | Unset): When the contact opted out after the reach.
            updated_at (datetime.datetime | Unset):
    """

    id: str
    campaign_id: str | Unset = UNSET
    contact_id: str | Unset = UNSET
    state: CampaignContactState | Unset = UNSET
    skip_reason: CampaignSkipReason | None | Unset = UNSET
    enrolled_at: datetime.datetime | Unset = UNSET
    reached_at: datetime.datetime | None | Unset = UNSET
    skipped_at: datetime.datetime | None | Unset = UNSET
    replied_at: datetime.datetime | None | Unset = UNSET
    booked_at: datetime.datetime | None | Unset = UNSET
    opted_out_at: datetime.datetime | None | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        campaign_id = self.campaign_id

        contact_id = self.contact_id

        state: str | Unset = UNSET
        if not isinstance(self.state, Unset):
            state = self.state.value

        skip_reason: None | str | Unset
        if isinstance(self.skip_reason, Unset):
            skip_reason = UNSET
        elif isinstance(self.skip_reason, CampaignSkipReason):
            skip_reason = self.skip_reason.value
        else:
            skip_reason = self.skip_reason

        enrolled_at: str | Unset = UNSET
        if not isinstance(self.enrolled_at, Unset):
            enrolled_at = self.enrolled_at.isoformat()

        reached_at: None | str | Unset
        if isinstance(self.reached_at, Unset):
            reached_at = UNSET
        elif isinstance(self.reached_at, datetime.datetime):
            reached_at = self.reached_at.isoformat()
        else:
            reached_at = self.reached_at

        skipped_at: None | str | Unset
        if isinstance(self.skipped_at, Unset):
            skipped_at = UNSET
        elif isinstance(self.skipped_at, datetime.datetime):
            skipped_at = self.skipped_at.isoformat()
        else:
            skipped_at = self.skipped_at

        replied_at: None | str | Unset
        if isinstance(self.replied_at, Unset):
            replied_at = UNSET
        elif isinstance(self.replied_at, datetime.datetime):
            replied_at = self.replied_at.isoformat()
        else:
            replied_at = self.replied_at

        booked_at: None | str | Unset
        if isinstance(self.booked_at, Unset):
            booked_at = UNSET
        elif isinstance(self.booked_at, datetime.datetime):
            booked_at = self.booked_at.isoformat()
        else:
            booked_at = self.booked_at

        opted_out_at: None | str | Unset
        if isinstance(self.opted_out_at, Unset):
            opted_out_at = UNSET
        elif isinstance(self.opted_out_at, datetime.datetime):
            opted_out_at = self.opted_out_at.isoformat()
        else:
            opted_out_at = self.opted_out_at

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
        if campaign_id is not UNSET:
            field_dict["campaign_id"] = campaign_id
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if state is not UNSET:
            field_dict["state"] = state
        if skip_reason is not UNSET:
            field_dict["skip_reason"] = skip_reason
        if enrolled_at is not UNSET:
            field_dict["enrolled_at"] = enrolled_at
        if reached_at is not UNSET:
            field_dict["reached_at"] = reached_at
        if skipped_at is not UNSET:
            field_dict["skipped_at"] = skipped_at
        if replied_at is not UNSET:
            field_dict["replied_at"] = replied_at
        if booked_at is not UNSET:
            field_dict["booked_at"] = booked_at
        if opted_out_at is not UNSET:
            field_dict["opted_out_at"] = opted_out_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        campaign_id = d.pop("campaign_id", UNSET)

        contact_id = d.pop("contact_id", UNSET)

        _state = d.pop("state", UNSET)
        state: CampaignContactState | Unset
        if isinstance(_state, Unset):
            state = UNSET
        else:
            state = CampaignContactState(_state)

        def _parse_skip_reason(data: object) -> CampaignSkipReason | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                skip_reason_type_0 = CampaignSkipReason(data)

                return skip_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CampaignSkipReason | None | Unset, data)

        skip_reason = _parse_skip_reason(d.pop("skip_reason", UNSET))

        _enrolled_at = d.pop("enrolled_at", UNSET)
        enrolled_at: datetime.datetime | Unset
        if isinstance(_enrolled_at, Unset):
            enrolled_at = UNSET
        else:
            enrolled_at = datetime.datetime.fromisoformat(_enrolled_at)

        def _parse_reached_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reached_at_type_0 = datetime.datetime.fromisoformat(data)

                return reached_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        reached_at = _parse_reached_at(d.pop("reached_at", UNSET))

        def _parse_skipped_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                skipped_at_type_0 = datetime.datetime.fromisoformat(data)

                return skipped_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        skipped_at = _parse_skipped_at(d.pop("skipped_at", UNSET))

        def _parse_replied_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                replied_at_type_0 = datetime.datetime.fromisoformat(data)

                return replied_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        replied_at = _parse_replied_at(d.pop("replied_at", UNSET))

        def _parse_booked_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                booked_at_type_0 = datetime.datetime.fromisoformat(data)

                return booked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        booked_at = _parse_booked_at(d.pop("booked_at", UNSET))

        def _parse_opted_out_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                opted_out_at_type_0 = datetime.datetime.fromisoformat(data)

                return opted_out_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        opted_out_at = _parse_opted_out_at(d.pop("opted_out_at", UNSET))

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        campaign_contact_narrowed = cls(
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

        campaign_contact_narrowed.additional_properties = d
        return campaign_contact_narrowed

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
