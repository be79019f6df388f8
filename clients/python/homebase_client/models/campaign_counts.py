from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.campaign_counts_skipped_by_reason import CampaignCountsSkippedByReason


T = TypeVar("T", bound="CampaignCounts")


@_attrs_define
class CampaignCounts:
    """
    Attributes:
        enrolled (int): Every contact enrolled.
        pending (int): Not yet reached nor skipped.
        reached (int): Reached, whatever they did after.
        replied (int): Reached and wrote back after it.
        booked (int): Reached and had an appointment booked after it.
        opted_out (int): Reached and opted out after it.
        skipped (int): Not reached, for a reason in skipped_by_reason.
        skipped_by_reason (CampaignCountsSkippedByReason): Skipped contacts by CampaignSkipReason.
    """

    enrolled: int
    pending: int
    reached: int
    replied: int
    booked: int
    opted_out: int
    skipped: int
    skipped_by_reason: CampaignCountsSkippedByReason
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enrolled = self.enrolled

        pending = self.pending

        reached = self.reached

        replied = self.replied

        booked = self.booked

        opted_out = self.opted_out

        skipped = self.skipped

        skipped_by_reason = self.skipped_by_reason.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enrolled": enrolled,
                "pending": pending,
                "reached": reached,
                "replied": replied,
                "booked": booked,
                "opted_out": opted_out,
                "skipped": skipped,
                "skipped_by_reason": skipped_by_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_counts_skipped_by_reason import (
            CampaignCountsSkippedByReason,
        )

        d = dict(src_dict)
        enrolled = d.pop("enrolled")

        pending = d.pop("pending")

        reached = d.pop("reached")

        replied = d.pop("replied")

        booked = d.pop("booked")

        opted_out = d.pop("opted_out")

        skipped = d.pop("skipped")

        skipped_by_reason = CampaignCountsSkippedByReason.from_dict(
            d.pop("skipped_by_reason")
        )

        campaign_counts = cls(
            enrolled=enrolled,
            pending=pending,
            reached=reached,
            replied=replied,
            booked=booked,
            opted_out=opted_out,
            skipped=skipped,
            skipped_by_reason=skipped_by_reason,
        )

        campaign_counts.additional_properties = d
        return campaign_counts

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
