from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.call_direction import CallDirection
from ..models.handled_by import HandledBy

T = TypeVar("T", bound="Call")


@_attrs_define
class Call:
    """
    Attributes:
        id (str):
        contact_id (None | str):
        direction (CallDirection):
        from_ (None | str): Masked unless the credential holds contacts:read:pii.
        to (None | str): Masked unless the credential holds contacts:read:pii.
        pii_masked (bool):
        started_at (datetime.datetime):
        ended_at (datetime.datetime | None):
        duration_seconds (int | None):
        handled_by (HandledBy):
        user_id (None | str):
        disposition (None | str): Free-form, max 40 chars. Values the product uses: connected, voicemail, no_answer,
            busy, failed, appointment_set, qualified, not_interested, callback_requested; the AI's calls also wrong_number,
            opted_out and handoff (docs/voice.md).
        transcript (None | str): Null once the contact is anonymized.
        summary (None | str): AI summary; null once the contact is anonymized.
        recording_url (None | str): Signed link to this service's recording proxy, valid five minutes, no credential
            needed; supports Range requests. Null when there is no recording.
        recording_url_expires_at (datetime.datetime | None):
        provider_call_id (None | str):
        created_at (datetime.datetime):
    """

    id: str
    contact_id: None | str
    direction: CallDirection
    from_: None | str
    to: None | str
    pii_masked: bool
    started_at: datetime.datetime
    ended_at: datetime.datetime | None
    duration_seconds: int | None
    handled_by: HandledBy
    user_id: None | str
    disposition: None | str
    transcript: None | str
    summary: None | str
    recording_url: None | str
    recording_url_expires_at: datetime.datetime | None
    provider_call_id: None | str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contact_id: None | str
        contact_id = self.contact_id

        direction = self.direction.value

        from_: None | str
        from_ = self.from_

        to: None | str
        to = self.to

        pii_masked = self.pii_masked

        started_at = self.started_at.isoformat()

        ended_at: None | str
        if isinstance(self.ended_at, datetime.datetime):
            ended_at = self.ended_at.isoformat()
        else:
            ended_at = self.ended_at

        duration_seconds: int | None
        duration_seconds = self.duration_seconds

        handled_by = self.handled_by.value

        user_id: None | str
        user_id = self.user_id

        disposition: None | str
        disposition = self.disposition

        transcript: None | str
        transcript = self.transcript

        summary: None | str
        summary = self.summary

        recording_url: None | str
        recording_url = self.recording_url

        recording_url_expires_at: None | str
        if isinstance(self.recording_url_expires_at, datetime.datetime):
            recording_url_expires_at = self.recording_url_expires_at.isoformat()
        else:
            recording_url_expires_at = self.recording_url_expires_at

        provider_call_id: None | str
        provider_call_id = self.provider_call_id

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "contact_id": contact_id,
                "direction": direction,
                "from": from_,
                "to": to,
                "pii_masked": pii_masked,
                "started_at": started_at,
                "ended_at": ended_at,
                "duration_seconds": duration_seconds,
                "handled_by": handled_by,
                "user_id": user_id,
                "disposition": disposition,
                "transcript": transcript,
                "summary": summary,
                "recording_url": recording_url,
                "recording_url_expires_at": recording_url_expires_at,
                "provider_call_id": provider_call_id,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_contact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_id = _parse_contact_id(d.pop("contact_id"))

        direction = CallDirection(d.pop("direction"))

        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("from"))

        def _parse_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        to = _parse_to(d.pop("to"))

        pii_masked = d.pop("pii_masked")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        def _parse_ended_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ended_at_type_0 = datetime.datetime.fromisoformat(data)

                return ended_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        def _parse_duration_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_seconds = _parse_duration_seconds(d.pop("duration_seconds"))

        handled_by = HandledBy(d.pop("handled_by"))

        def _parse_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_id = _parse_user_id(d.pop("user_id"))

        def _parse_disposition(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disposition = _parse_disposition(d.pop("disposition"))

        def _parse_transcript(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transcript = _parse_transcript(d.pop("transcript"))

        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))

        def _parse_recording_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        recording_url = _parse_recording_url(d.pop("recording_url"))

        def _parse_recording_url_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recording_url_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return recording_url_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        recording_url_expires_at = _parse_recording_url_expires_at(
            d.pop("recording_url_expires_at")
        )

        def _parse_provider_call_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_call_id = _parse_provider_call_id(d.pop("provider_call_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        call = cls(
            id=id,
            contact_id=contact_id,
            direction=direction,
            from_=from_,
            to=to,
            pii_masked=pii_masked,
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

        call.additional_properties = d
        return call

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
