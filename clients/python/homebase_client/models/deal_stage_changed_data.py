from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DealStageChangedData")


@_attrs_define
class DealStageChangedData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        id (str): deal id
        title (str):
        pipeline_id (str):
        previous_pipeline_id (str):
        previous_stage_id (str):
        previous_stage (str):
        stage_id (str):
        stage (str):
        status (str):
        currency (str):
        contact_id (None | str | Unset):
        value (Any | Unset):
    """

    event_id: str
    occurred_at: datetime.datetime
    id: str
    title: str
    pipeline_id: str
    previous_pipeline_id: str
    previous_stage_id: str
    previous_stage: str
    stage_id: str
    stage: str
    status: str
    currency: str
    contact_id: None | str | Unset = UNSET
    value: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        id = self.id

        title = self.title

        pipeline_id = self.pipeline_id

        previous_pipeline_id = self.previous_pipeline_id

        previous_stage_id = self.previous_stage_id

        previous_stage = self.previous_stage

        stage_id = self.stage_id

        stage = self.stage

        status = self.status

        currency = self.currency

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "id": id,
                "title": title,
                "pipeline_id": pipeline_id,
                "previous_pipeline_id": previous_pipeline_id,
                "previous_stage_id": previous_stage_id,
                "previous_stage": previous_stage,
                "stage_id": stage_id,
                "stage": stage,
                "status": status,
                "currency": currency,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        id = d.pop("id")

        title = d.pop("title")

        pipeline_id = d.pop("pipeline_id")

        previous_pipeline_id = d.pop("previous_pipeline_id")

        previous_stage_id = d.pop("previous_stage_id")

        previous_stage = d.pop("previous_stage")

        stage_id = d.pop("stage_id")

        stage = d.pop("stage")

        status = d.pop("status")

        currency = d.pop("currency")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        value = d.pop("value", UNSET)

        deal_stage_changed_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            id=id,
            title=title,
            pipeline_id=pipeline_id,
            previous_pipeline_id=previous_pipeline_id,
            previous_stage_id=previous_stage_id,
            previous_stage=previous_stage,
            stage_id=stage_id,
            stage=stage,
            status=status,
            currency=currency,
            contact_id=contact_id,
            value=value,
        )

        deal_stage_changed_data.additional_properties = d
        return deal_stage_changed_data

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
