from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CampaignEnrollResult")


@_attrs_define
class CampaignEnrollResult:
    """
    Attributes:
        campaign_id (str):
        matched (int): Distinct contacts named or matched.
        enrolled (int): Enrolled by this call.
        already_enrolled (int): Already enrolled in the campaign: kept as they are.
    """

    campaign_id: str
    matched: int
    enrolled: int
    already_enrolled: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        campaign_id = self.campaign_id

        matched = self.matched

        enrolled = self.enrolled

        already_enrolled = self.already_enrolled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "campaign_id": campaign_id,
                "matched": matched,
                "enrolled": enrolled,
                "already_enrolled": already_enrolled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        campaign_id = d.pop("campaign_id")

        matched = d.pop("matched")

        enrolled = d.pop("enrolled")

        already_enrolled = d.pop("already_enrolled")

        campaign_enroll_result = cls(
            campaign_id=campaign_id,
            matched=matched,
            enrolled=enrolled,
            already_enrolled=already_enrolled,
        )

        campaign_enroll_result.additional_properties = d
        return campaign_enroll_result

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
