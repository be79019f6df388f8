from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.campaign_audience import CampaignAudience


T = TypeVar("T", bound="CampaignEnrollRequest")


@_attrs_define
class CampaignEnrollRequest:
    """
    Attributes:
        contact_ids (list[str] | None | Unset): Contacts of this workspace to enrol (1 to 1,000); give this or `filter`,
            not both.
        filter_ (CampaignAudience | None | Unset): Enrol every contact the contacts list shows with these filters (at
            most 1,000; erased contacts are left out); give this or `contact_ids`.
    """

    contact_ids: list[str] | None | Unset = UNSET
    filter_: CampaignAudience | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.campaign_audience import CampaignAudience

        contact_ids: list[str] | None | Unset
        if isinstance(self.contact_ids, Unset):
            contact_ids = UNSET
        elif isinstance(self.contact_ids, list):
            contact_ids = self.contact_ids

        else:
            contact_ids = self.contact_ids

        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, CampaignAudience):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if contact_ids is not UNSET:
            field_dict["contact_ids"] = contact_ids
        if filter_ is not UNSET:
            field_dict["filter"] = filter_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_audience import CampaignAudience

        d = dict(src_dict)

        def _parse_contact_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                contact_ids_type_0 = cast(list[str], data)

                return contact_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        contact_ids = _parse_contact_ids(d.pop("contact_ids", UNSET))

        def _parse_filter_(data: object) -> CampaignAudience | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = CampaignAudience.from_dict(data)

                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CampaignAudience | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))

        campaign_enroll_request = cls(
            contact_ids=contact_ids,
            filter_=filter_,
        )

        return campaign_enroll_request
