from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.deal_status import DealStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.deal_narrowed_custom_fields import DealNarrowedCustomFields


T = TypeVar("T", bound="DealNarrowed")


@_attrs_define
class DealNarrowed:
    """A Deal narrowed by the `fields` query parameter: only `id` are always present; every other member only when `fields`
    names it. Without `fields` the answer is a whole Deal.

        Attributes:
            id (str):
            title (str | Unset):
            pipeline_id (str | Unset):
            stage_id (str | Unset):
            contact_id (None | str | Unset): Kept when the contact is anonymized.
            value (None | str | Unset): Decimal string in major units.
            currency (str | Unset): ISO 4217.
            expected_close_date (datetime.date | None | Unset):
            owner_id (None | str | Unset):
            status (DealStatus | Unset):
            commission_rate (None | str | Unset): Percent, decimal string.
            commission_amount (None | str | Unset): Explicit, or value x commission_rate rounded half up to the cent.
            custom_fields (DealNarrowedCustomFields | Unset): The record's custom field values by key, for the workspace's
                live custom fields (GET /v1/custom-fields); a field without a value is absent. Text values are masked by value
                (phone numbers and email addresses inside them) unless the credential holds contacts:read:pii.
            stage_changed_at (datetime.datetime | Unset):
            closed_at (datetime.datetime | None | Unset): When status became won or lost.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    title: str | Unset = UNSET
    pipeline_id: str | Unset = UNSET
    stage_id: str | Unset = UNSET
    contact_id: None | str | Unset = UNSET
    value: None | str | Unset = UNSET
    currency: str | Unset = UNSET
    expected_close_date: datetime.date | None | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    status: DealStatus | Unset = UNSET
    commission_rate: None | str | Unset = UNSET
    commission_amount: None | str | Unset = UNSET
    custom_fields: DealNarrowedCustomFields | Unset = UNSET
    stage_changed_at: datetime.datetime | Unset = UNSET
    closed_at: datetime.datetime | None | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        pipeline_id = self.pipeline_id

        stage_id = self.stage_id

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        value: None | str | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        else:
            value = self.value

        currency = self.currency

        expected_close_date: None | str | Unset
        if isinstance(self.expected_close_date, Unset):
            expected_close_date = UNSET
        elif isinstance(self.expected_close_date, datetime.date):
            expected_close_date = self.expected_close_date.isoformat()
        else:
            expected_close_date = self.expected_close_date

        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        commission_rate: None | str | Unset
        if isinstance(self.commission_rate, Unset):
            commission_rate = UNSET
        else:
            commission_rate = self.commission_rate

        commission_amount: None | str | Unset
        if isinstance(self.commission_amount, Unset):
            commission_amount = UNSET
        else:
            commission_amount = self.commission_amount

        custom_fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom_fields, Unset):
            custom_fields = self.custom_fields.to_dict()

        stage_changed_at: str | Unset = UNSET
        if not isinstance(self.stage_changed_at, Unset):
            stage_changed_at = self.stage_changed_at.isoformat()

        closed_at: None | str | Unset
        if isinstance(self.closed_at, Unset):
            closed_at = UNSET
        elif isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

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
        if title is not UNSET:
            field_dict["title"] = title
        if pipeline_id is not UNSET:
            field_dict["pipeline_id"] = pipeline_id
        if stage_id is not UNSET:
            field_dict["stage_id"] = stage_id
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if value is not UNSET:
            field_dict["value"] = value
        if currency is not UNSET:
            field_dict["currency"] = currency
        if expected_close_date is not UNSET:
            field_dict["expected_close_date"] = expected_close_date
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id
        if status is not UNSET:
            field_dict["status"] = status
        if commission_rate is not UNSET:
            field_dict["commission_rate"] = commission_rate
        if commission_amount is not UNSET:
            field_dict["commission_amount"] = commission_amount
        if custom_fields is not UNSET:
            field_dict["custom_fields"] = custom_fields
        if stage_changed_at is not UNSET:
            field_dict["stage_changed_at"] = stage_changed_at
        if closed_at is not UNSET:
            field_dict["closed_at"] = closed_at
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.deal_narrowed_custom_fields import DealNarrowedCustomFields

        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title", UNSET)

        pipeline_id = d.pop("pipeline_id", UNSET)

        stage_id = d.pop("stage_id", UNSET)

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_value(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        value = _parse_value(d.pop("value", UNSET))

        currency = d.pop("currency", UNSET)

        def _parse_expected_close_date(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expected_close_date_type_0 = datetime.date.fromisoformat(data)

                return expected_close_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        expected_close_date = _parse_expected_close_date(
            d.pop("expected_close_date", UNSET)
        )

        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("owner_id", UNSET))

        _status = d.pop("status", UNSET)
        status: DealStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = DealStatus(_status)

        def _parse_commission_rate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        commission_rate = _parse_commission_rate(d.pop("commission_rate", UNSET))

        def _parse_commission_amount(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        commission_amount = _parse_commission_amount(d.pop("commission_amount", UNSET))

        _custom_fields = d.pop("custom_fields", UNSET)
        custom_fields: DealNarrowedCustomFields | Unset
        if isinstance(_custom_fields, Unset):
            custom_fields = UNSET
        else:
            custom_fields = DealNarrowedCustomFields.from_dict(_custom_fields)

        _stage_changed_at = d.pop("stage_changed_at", UNSET)
        stage_changed_at: datetime.datetime | Unset
        if isinstance(_stage_changed_at, Unset):
            stage_changed_at = UNSET
        else:
            stage_changed_at = datetime.datetime.fromisoformat(_stage_changed_at)

        def _parse_closed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)

                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        closed_at = _parse_closed_at(d.pop("closed_at", UNSET))

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

        deal_narrowed = cls(
            id=id,
            title=title,
            pipeline_id=pipeline_id,
            stage_id=stage_id,
            contact_id=contact_id,
            value=value,
            currency=currency,
            expected_close_date=expected_close_date,
            owner_id=owner_id,
            status=status,
            commission_rate=commission_rate,
            commission_amount=commission_amount,
            custom_fields=custom_fields,
            stage_changed_at=stage_changed_at,
            closed_at=closed_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        deal_narrowed.additional_properties = d
        return deal_narrowed

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
