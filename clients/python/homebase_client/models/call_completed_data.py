from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CallCompletedData")


@_attrs_define
class CallCompletedData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        id (str): call id
        direction (str):
        handled_by (str): ai|human
        has_recording (bool):
        contact_id (None | str | Unset):
        from_ (None | str | Unset): masked
        to (None | str | Unset): masked
        user_id (None | str | Unset):
        started_at (None | str | Unset):
        ended_at (None | str | Unset):
        duration_seconds (int | None | Unset):
        disposition (None | str | Unset):
        summary (None | str | Unset): AI; phone numbers and addresses written in it masked
        provider_call_id (None | str | Unset):
    """

    event_id: str
    occurred_at: datetime.datetime
    id: str
    direction: str
    handled_by: str
    has_recording: bool
    contact_id: None | str | Unset = UNSET
    from_: None | str | Unset = UNSET
    to: None | str | Unset = UNSET
    user_id: None | str | Unset = UNSET
    started_at: None | str | Unset = UNSET
    ended_at: None | str | Unset = UNSET
    duration_seconds: int | None | Unset = UNSET
    disposition: None | str | Unset = UNSET
    summary: None | str | Unset = UNSET
    provider_call_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        id = self.id

        direction = self.direction

        handled_by = self.handled_by

        has_recording = self.has_recording

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        else:
            to = self.to

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        else:
            started_at = self.started_at

        ended_at: None | str | Unset
        if isinstance(self.ended_at, Unset):
            ended_at = UNSET
        else:
            ended_at = self.ended_at

        duration_seconds: int | None | Unset
        if isinstance(self.duration_seconds, Unset):
            duration_seconds = UNSET
        else:
            duration_seconds = self.duration_seconds

        disposition: None | str | Unset
        if isinstance(self.disposition, Unset):
            disposition = UNSET
        else:
            disposition = self.disposition

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        provider_call_id: None | str | Unset
        if isinstance(self.provider_call_id, Unset):
            provider_call_id = UNSET
        else:
            provider_call_id = self.provider_call_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "id": id,
                "direction": direction,
                "handled_by": handled_by,
                "has_recording": has_recording,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if ended_at is not UNSET:
            field_dict["ended_at"] = ended_at
        if duration_seconds is not UNSET:
            field_dict["duration_seconds"] = duration_seconds
        if disposition is not UNSET:
            field_dict["disposition"] = disposition
        if summary is not UNSET:
            field_dict["summary"] = summary
        if provider_call_id is not UNSET:
            field_dict["provider_call_id"] = provider_call_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        id = d.pop("id")

        direction = d.pop("direction")

        handled_by = d.pop("handled_by")

        has_recording = d.pop("has_recording")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))

        def _parse_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        to = _parse_to(d.pop("to", UNSET))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        def _parse_started_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        started_at = _parse_started_at(d.pop("started_at", UNSET))

        def _parse_ended_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ended_at = _parse_ended_at(d.pop("ended_at", UNSET))

        def _parse_duration_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        duration_seconds = _parse_duration_seconds(d.pop("duration_seconds", UNSET))

        def _parse_disposition(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disposition = _parse_disposition(d.pop("disposition", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        def _parse_provider_call_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider_call_id = _parse_provider_call_id(d.pop("provider_call_id", UNSET))

        call_completed_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            id=id,
            direction=direction,
            handled_by=handled_by,
            has_recording=has_recording,
            contact_id=contact_id,
            from_=from_,
            to=to,
            user_id=user_id,
            started_at=started_at,
            ended_at=ended_at,
            duration_seconds=duration_seconds,
            disposition=disposition,
            summary=summary,
            provider_call_id=provider_call_id,
        )

        call_completed_data.additional_properties = d
        return call_completed_data

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
