from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.deal_status import DealStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.deal_update_custom_fields import DealUpdateCustomFields


T = TypeVar("T", bound="DealUpdate")


@_attrs_define
class DealUpdate:
    """Any subset. pipeline_id, stage_id, title, currency and status may not be null; the
    rest accept null to clear them. Changing pipeline_id without stage_id moves the deal to
    the new pipeline's first stage. custom_fields may not be null either: it merges into
    the deal's (null for a key removes its value).

        Attributes:
            pipeline_id (str | Unset):
            stage_id (str | Unset):
            title (str | Unset):
            contact_id (None | str | Unset):
            value (float | None | str | Unset):
            currency (str | Unset): ISO 4217 code, upper case.
            expected_close_date (datetime.date | None | Unset):
            owner_id (None | str | Unset):
            status (DealStatus | Unset):
            commission_rate (float | None | str | Unset):
            commission_amount (float | None | str | Unset):
            custom_fields (DealUpdateCustomFields | Unset): Custom field values by key (GET /v1/custom-fields). On create,
                the values to set; on update, merged into the record's: a key sent replaces its value, null removes it, keys not
                sent are kept. Each value is checked against its field's type; an unknown key or a bad value is 400 naming
                custom_fields.<key>. At most 100 members; a multi_select value at most 50 choices. The record's custom_fields
                after the write are at most 32768 bytes as compact UTF-8 JSON (no spaces, characters as themselves), keyed as
                GET shows them unmasked: 400 naming custom_fields beyond, unless the write does not grow a record already past
                it.
    """

    pipeline_id: str | Unset = UNSET
    stage_id: str | Unset = UNSET
    title: str | Unset = UNSET
    contact_id: None | str | Unset = UNSET
    value: float | None | str | Unset = UNSET
    currency: str | Unset = UNSET
    expected_close_date: datetime.date | None | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    status: DealStatus | Unset = UNSET
    commission_rate: float | None | str | Unset = UNSET
    commission_amount: float | None | str | Unset = UNSET
    custom_fields: DealUpdateCustomFields | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pipeline_id = self.pipeline_id

        stage_id = self.stage_id

        title = self.title

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

        custom_fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom_fields, Unset):
            custom_fields = self.custom_fields.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if pipeline_id is not UNSET:
            field_dict["pipeline_id"] = pipeline_id
        if stage_id is not UNSET:
            field_dict["stage_id"] = stage_id
        if title is not UNSET:
            field_dict["title"] = title
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
        from ..models.deal_update_custom_fields import DealUpdateCustomFields

        d = dict(src_dict)
        pipeline_id = d.pop("pipeline_id", UNSET)

        stage_id = d.pop("stage_id", UNSET)

        title = d.pop("title", UNSET)

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

        _custom_fields = d.pop("custom_fields", UNSET)
        custom_fields: DealUpdateCustomFields | Unset
        if isinstance(_custom_fields, Unset):
            custom_fields = UNSET
        else:
            custom_fields = DealUpdateCustomFields.from_dict(_custom_fields)

        deal_update = cls(
            pipeline_id=pipeline_id,
            stage_id=stage_id,
            title=title,
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

        return deal_update
