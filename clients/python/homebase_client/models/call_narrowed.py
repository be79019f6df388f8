from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.call_direction import CallDirection
from ..models.handled_by import HandledBy
from ..types import UNSET, Unset

T = TypeVar("T", bound="CallNarrowed")


@_attrs_define
class CallNarrowed:
    """A Call narrowed by the `fields` query parameter: only `id`, `pii_masked` are always present; every other member only
    when `fields` names it. Without `fields` the answer is a whole Call.

        Attributes:
            id (str):
            pii_masked (bool):
            contact_id (None | str | Unset):
            direction (CallDirection | Unset):
            from_ (None | str | Unset): Masked unless the credential holds contacts:read:pii.
            to (None | str | Unset): Masked unless the credential holds contacts:read:pii.
            started_at (datetime.datetime | Unset):
            ended_at (datetime.datetime | None | Unset):
            duration_seconds (int | None | Unset):
            handled_by (HandledBy | Unset):
            user_id (None | str | Unset):
            disposition (None | str | Unset): Free-form, max 40 chars. Values the product uses: connected, voicemail,
                no_answer, busy, failed, appointment_set, qualified, not_interested, callback_requested; the AI's calls also
                wrong_number, opted_out and handoff (docs/voice.md).
            transcript (None | str | Unset): Null once the contact is anonymized.
            summary (None | str | Unset): AI summary; null once the contact is anonymized.
            recording_url (None | str | Unset): Signed link to this service's recording proxy, valid five minutes, no
                credential needed; supports Range requests. Null when there is no recording.
            recording_url_expires_at (datetime.datetime | None | Unset):
            provider_call_id (None | str | Unset):
            created_at (datetime.datetime | Unset):
    """

    id: str
    pii_masked: bool
    contact_id: None | str | Unset = UNSET
    direction: CallDirection | Unset = UNSET
    from_: None | str | Unset = UNSET
    to: None | str | Unset = UNSET
    started_at: datetime.datetime | Unset = UNSET
    ended_at: datetime.datetime | None | Unset = UNSET
    duration_seconds: int | None | Unset = UNSET
    handled_by: HandledBy | Unset = UNSET
    user_id: None | str | Unset = UNSET
    disposition: None | str | Unset = UNSET
    transcript: None | str | Unset = UNSET
    summary: None | str | Unset = UNSET
    recording_url: None | str | Unset = UNSET
    recording_url_expires_at: datetime.datetime | None | Unset = UNSET
    provider_call_id: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pii_masked = self.pii_masked

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

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

        started_at: str | Unset = UNSET
        if not isinstance(self.started_at, Unset):
            started_at = self.started_at.isoformat()

        ended_at: None | str | Unset
        if isinstance(self.ended_at, Unset):
            ended_at = UNSET
        elif isinstance(self.ended_at, datetime.datetime):
            ended_at = self.ended_at.isoformat()
        else:
            ended_at = self.ended_at

        duration_seconds: int | None | Unset
        if isinstance(self.duration_seconds, Unset):
            duration_seconds = UNSET
        else:
            duration_seconds = self.duration_seconds

        handled_by: str | Unset = UNSET
        if not isinstance(self.handled_by, Unset):
            handled_by = self.handled_by.value

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        disposition: None | str | Unset
        if isinstance(self.disposition, Unset):
            disposition = UNSET
        else:
            disposition = self.disposition

        transcript: None | str | Unset
        if isinstance(self.transcript, Unset):
            transcript = UNSET
        else:
            transcript = self.transcript

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        recording_url: None | str | Unset
        if isinstance(self.recording_url, Unset):
            recording_url = UNSET
        else:
            recording_url = self.recording_url

        recording_url_expires_at: None | str | Unset
        if isinstance(self.recording_url_expires_at, Unset):
            recording_url_expires_at = UNSET
        elif isinstance(self.recording_url_expires_at, datetime.datetime):
            recording_url_expires_at = self.recording_url_expires_at.isoformat()
        else:
            recording_url_expires_at = self.recording_url_expires_at

        provider_call_id: None | str | Unset
        if isinstance(self.provider_call_id, Unset):
            provider_call_id = UNSET
        else:
            provider_call_id = self.provider_call_id

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "pii_masked": pii_masked,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if direction is not UNSET:
            field_dict["direction"] = direction
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if ended_at is not UNSET:
            field_dict["ended_at"] = ended_at
        if duration_seconds is not UNSET:
            field_dict["duration_seconds"] = duration_seconds
        if handled_by is not UNSET:
            field_dict["handled_by"] = handled_by
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if disposition is not UNSET:
            field_dict["disposition"] = disposition
        if transcript is not UNSET:
            field_dict["transcript"] = transcript
        if summary is not UNSET:
            field_dict["summary"] = summary
        if recording_url is not UNSET:
            field_dict["recording_url"] = recording_url
        if recording_url_expires_at is not UNSET:
            field_dict["recording_url_expires_at"] = recording_url_expires_at
        if provider_call_id is not UNSET:
            field_dict["provider_call_id"] = provider_call_id
        if created_at is not UNSET:
            field_dict["created_at"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        pii_masked = d.pop("pii_masked")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        _direction = d.pop("direction", UNSET)
        direction: CallDirection | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = CallDirection(_direction)

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

        _started_at = d.pop("started_at", UNSET)
        started_at: datetime.datetime | Unset
        if isinstance(_started_at, Unset):
            started_at = UNSET
        else:
            started_at = datetime.datetime.fromisoformat(_started_at)

        def _parse_ended_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ended_at_type_0 = datetime.datetime.fromisoformat(data)

                return ended_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        ended_at = _parse_ended_at(d.pop("ended_at", UNSET))

        def _parse_duration_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        duration_seconds = _parse_duration_seconds(d.pop("duration_seconds", UNSET))

        _handled_by = d.pop("handled_by", UNSET)
        handled_by: HandledBy | Unset
        if isinstance(_handled_by, Unset):
            handled_by = UNSET
        else:
            handled_by = HandledBy(_handled_by)

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        def _parse_disposition(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disposition = _parse_disposition(d.pop("disposition", UNSET))

        def _parse_transcript(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        transcript = _parse_transcript(d.pop("transcript", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        def _parse_recording_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recording_url = _parse_recording_url(d.pop("recording_url", UNSET))

        def _parse_recording_url_expires_at(
            data: object,
        ) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recording_url_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return recording_url_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        recording_url_expires_at = _parse_recording_url_expires_at(
            d.pop("recording_url_expires_at", UNSET)
        )

        def _parse_provider_call_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider_call_id = _parse_provider_call_id(d.pop("provider_call_id", UNSET))

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        call_narrowed = cls(
            id=id,
            pii_masked=pii_masked,
            contact_id=contact_id,
            direction=direction,
            from_=from_,
            to=to,
            started_at=started_at,
            ended_at=ended_at,
            duration_seconds=duration_seconds,
            handled_by=handled_by,
            user_id=user_id,
            disposition=disposition,
            transcript=transcript,
            summary=summary,
            recording_url=recording_url,
            recording_url_expires_at=recording_url_expires_at,
            provider_call_id=provider_call_id,
            created_at=created_at,
        )

        call_narrowed.additional_properties = d
        return call_narrowed

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
