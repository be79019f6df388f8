from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.deal_status import DealStatus

if TYPE_CHECKING:
    from ..models.deal_custom_fields import DealCustomFields


T = TypeVar("T", bound="Deal")


@_attrs_define
class Deal:
    """
    Attributes:
        id (str):
        title (str):
        pipeline_id (str):
        stage_id (str):
        contact_id (None | str): Kept when the contact is anonymized.
        value (None | str): Decimal string in major units.
        currency (str): ISO 4217.
        expected_close_date (datetime.date | None):
        owner_id (None | str):
        status (DealStatus):
        commission_rate (None | str): Percent, decimal string.
        commission_amount (None | str): Explicit, or value x commission_rate rounded half up to the cent.
        custom_fields (DealCustomFields): The record's custom field values by key, for the workspace's live custom
            fields (GET /v1/custom-fields); a field without a value is absent. Text values are masked by value (phone
            numbers and email addresses inside them) unless the credential holds contacts:read:pii.
        stage_changed_at (datetime.datetime):
        closed_at (datetime.datetime | None): When status became won or lost.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    title: str
    pipeline_id: str
    stage_id: str
    contact_id: None | str
    value: None | str
    currency: str
    expected_close_date: datetime.date | None
    owner_id: None | str
    status: DealStatus
    commission_rate: None | str
    commission_amount: None | str
    custom_fields: DealCustomFields
    stage_changed_at: datetime.datetime
    closed_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        pipeline_id = self.pipeline_id

        stage_id = self.stage_id

        contact_id: None | str
        contact_id = self.contact_id

        value: None | str
        value = self.value

        currency = self.currency

        expected_close_date: None | str
        if isinstance(self.expected_close_date, datetime.date):
            expected_close_date = self.expected_close_date.isoformat()
        else:
            expected_close_date = self.expected_close_date

        owner_id: None | str
        owner_id = self.owner_id

        status = self.status.value

        commission_rate: None | str
        commission_rate = self.commission_rate

        commission_amount: None | str
        commission_amount = self.commission_amount

        custom_fields = self.custom_fields.to_dict()

        stage_changed_at = self.stage_changed_at.isoformat()

        closed_at: None | str
        if isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "title": title,
                "pipeline_id": pipeline_id,
                "stage_id": stage_id,
                "contact_id": contact_id,
                "value": value,
                "currency": currency,
                "expected_close_date": expected_close_date,
                "owner_id": owner_id,
                "status": status,
                "commission_rate": commission_rate,
                "commission_amount": commission_amount,
                "custom_fields": custom_fields,
                "stage_changed_at": stage_changed_at,
                "closed_at": closed_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.deal_custom_fields import DealCustomFields

        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        pipeline_id = d.pop("pipeline_id")

        stage_id = d.pop("stage_id")

        def _parse_contact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_id = _parse_contact_id(d.pop("contact_id"))

        def _parse_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        value = _parse_value(d.pop("value"))

        currency = d.pop("currency")

        def _parse_expected_close_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expected_close_date_type_0 = datetime.date.fromisoformat(data)

                return expected_close_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        expected_close_date = _parse_expected_close_date(d.pop("expected_close_date"))

        def _parse_owner_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner_id = _parse_owner_id(d.pop("owner_id"))

        status = DealStatus(d.pop("status"))

        def _parse_commission_rate(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        commission_rate = _parse_commission_rate(d.pop("commission_rate"))

        def _parse_commission_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        commission_amount = _parse_commission_amount(d.pop("commission_amount"))

        custom_fields = DealCustomFields.from_dict(d.pop("custom_fields"))

        stage_changed_at = datetime.datetime.fromisoformat(d.pop("stage_changed_at"))

        def _parse_closed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)

                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        closed_at = _parse_closed_at(d.pop("closed_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        deal = cls(
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

        deal.additional_properties = d
        return deal

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
