from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.deal_status import DealStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.deal_create_custom_fields_type_0 import DealCreateCustomFieldsType0


T = TypeVar("T", bound="DealCreate")


@_attrs_define
class DealCreate:
    """pipeline_id and title are required. stage_id defaults to the pipeline's first stage.

    Attributes:
        pipeline_id (str):
        title (str):
        stage_id (None | str | Unset): A stage of pipeline_id; defaults to its first stage.
        contact_id (None | str | Unset): A contact of this workspace.
        value (float | None | str | Unset):
        currency (str | Unset): ISO 4217 code, upper case. Default: 'USD'.
        expected_close_date (datetime.date | None | Unset):
        owner_id (None | str | Unset):
        status (DealStatus | Unset):
        commission_rate (float | None | str | Unset):
        commission_amount (float | None | str | Unset): Explicit commission; when null it is derived from value x
            commission_rate.
        custom_fields (DealCreateCustomFieldsType0 | None | Unset):
    """

    pipeline_id: str
    title: str
    stage_id: None | str | Unset = UNSET
    contact_id: None | str | Unset = UNSET
    value: float | None | str | Unset = UNSET
    currency: str | Unset = "USD"
    expected_close_date: datetime.date | None | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    status: DealStatus | Unset = UNSET
    commission_rate: float | None | str | Unset = UNSET
    commission_amount: float | None | str | Unset = UNSET
    custom_fields: DealCreateCustomFieldsType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.deal_create_custom_fields_type_0 import (
            DealCreateCustomFieldsType0,
        )

        pipeline_id = self.pipeline_id

        title = self.title

        stage_id: None | str | Unset
        if isinstance(self.stage_id, Unset):
            stage_id = UNSET
        else:
            stage_id = self.stage_id

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        value: float | None | str | Unset
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

        commission_rate: float | None | str | Unset
        if isinstance(self.commission_rate, Unset):
            commission_rate = UNSET
        else:
            commission_rate = self.commission_rate

        commission_amount: float | None | str | Unset
        if isinstance(self.commission_amount, Unset):
            commission_amount = UNSET
        else:
            commission_amount = self.commission_amount

        custom_fields: dict[str, Any] | None | Unset
        if isinstance(self.custom_fields, Unset):
            custom_fields = UNSET
        elif isinstance(self.custom_fields, DealCreateCustomFieldsType0):
            custom_fields = self.custom_fields.to_dict()
        else:
            custom_fields = self.custom_fields

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pipeline_id": pipeline_id,
                "title": title,
            }
        )
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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.deal_create_custom_fields_type_0 import (
            DealCreateCustomFieldsType0,
        )

        d = dict(src_dict)
        pipeline_id = d.pop("pipeline_id")

        title = d.pop("title")

        def _parse_stage_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stage_id = _parse_stage_id(d.pop("stage_id", UNSET))

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_value(data: object) -> float | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | str | Unset, data)

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

        def _parse_commission_rate(data: object) -> float | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | str | Unset, data)

        commission_rate = _parse_commission_rate(d.pop("commission_rate", UNSET))

        def _parse_commission_amount(data: object) -> float | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | str | Unset, data)

        commission_amount = _parse_commission_amount(d.pop("commission_amount", UNSET))

        def _parse_custom_fields(
            data: object,
        ) -> DealCreateCustomFieldsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                custom_fields_type_0 = DealCreateCustomFieldsType0.from_dict(data)

                return custom_fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DealCreateCustomFieldsType0 | None | Unset, data)

        custom_fields = _parse_custom_fields(d.pop("custom_fields", UNSET))

        deal_create = cls(
            pipeline_id=pipeline_id,
            title=title,
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
        )

        return deal_create
