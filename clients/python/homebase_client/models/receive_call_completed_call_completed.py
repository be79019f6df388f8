from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.receive_call_completed_call_completed_call_direction import (
    ReceiveCallCompletedCallCompletedCallDirection,
)
from ..models.receive_call_completed_call_completed_handled_by import (
    ReceiveCallCompletedCallCompletedHandledBy,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReceiveCallCompletedCallCompleted")


@_attrs_define
class ReceiveCallCompletedCallCompleted:
    """The provider callback body. The workspace is workspace_id when given, else the
    workspace that owns the receiving number (to for inbound, from for outbound).

        Attributes:
            direction (ReceiveCallCompletedCallCompletedCallDirection):
            started_at (datetime.datetime):
            handled_by (ReceiveCallCompletedCallCompletedHandledBy):
            provider_call_id (str): The provider's id; a repeated callback records the call once.
            from_ (None | str | Unset): Caller, E.164 preferred.
            to (None | str | Unset): Callee, E.164 preferred.
            ended_at (datetime.datetime | None | Unset): Not before started_at, and at most a day (MAX_CALL_SECONDS) after
                it, the bound of duration_seconds, which defaults to the difference.
            duration_seconds (int | None | Unset): Defaults to ended_at - started_at.
            user_id (None | str | Unset): The member who took a human call.
            disposition (None | str | Unset): Free-form, max 40 chars. Values the product uses: connected, voicemail,
                no_answer, busy, failed, appointment_set, qualified, not_interested, callback_requested; the AI's calls also
                wrong_number, opted_out and handoff (docs/voice.md).
            transcript (None | str | Unset):
            summary (None | str | Unset): The AI summary.
            recording_key (None | str | Unset): Where the audio is stored: a path relative to the service's recordings
                storage (HOMEBASE_RECORDINGS_DIR).
            contact_id (None | str | Unset): The contact; when absent the call is matched by the other party's number.
            workspace_id (None | str | Unset):
    """

    direction: ReceiveCallCompletedCallCompletedCallDirection
    started_at: datetime.datetime
    handled_by: ReceiveCallCompletedCallCompletedHandledBy
    provider_call_id: str
    from_: None | str | Unset = UNSET
    to: None | str | Unset = UNSET
    ended_at: datetime.datetime | None | Unset = UNSET
    duration_seconds: int | None | Unset = UNSET
    user_id: None | str | Unset = UNSET
    disposition: None | str | Unset = UNSET
    transcript: None | str | Unset = UNSET
    summary: None | str | Unset = UNSET
    recording_key: None | str | Unset = UNSET
    contact_id: None | str | Unset = UNSET
    workspace_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        direction = self.direction.value

        started_at = self.started_at.isoformat()

        handled_by = self.handled_by.value

        provider_call_id = self.provider_call_id

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

        recording_key: None | str | Unset
        if isinstance(self.recording_key, Unset):
            recording_key = UNSET
        else:
            recording_key = self.recording_key

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        workspace_id: None | str | Unset
        if isinstance(self.workspace_id, Unset):
            workspace_id = UNSET
        else:
            workspace_id = self.workspace_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "direction": direction,
                "started_at": started_at,
                "handled_by": handled_by,
                "provider_call_id": provider_call_id,
            }
        )
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to
        if ended_at is not UNSET:
            field_dict["ended_at"] = ended_at
        if duration_seconds is not UNSET:
            field_dict["duration_seconds"] = duration_seconds
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if disposition is not UNSET:
            field_dict["disposition"] = disposition
        if transcript is not UNSET:
            field_dict["transcript"] = transcript
        if summary is not UNSET:
            field_dict["summary"] = summary
        if recording_key is not UNSET:
            field_dict["recording_key"] = recording_key
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if workspace_id is not UNSET:
            field_dict["workspace_id"] = workspace_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        direction = ReceiveCallCompletedCallCompletedCallDirection(d.pop("direction"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        handled_by = ReceiveCallCompletedCallCompletedHandledBy(d.pop("handled_by"))

        provider_call_id = d.pop("provider_call_id")

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

        def _parse_recording_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recording_key = _parse_recording_key(d.pop("recording_key", UNSET))

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_workspace_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        workspace_id = _parse_workspace_id(d.pop("workspace_id", UNSET))

        receive_call_completed_call_completed = cls(
            direction=direction,
            started_at=started_at,
            handled_by=handled_by,
            provider_call_id=provider_call_id,
            from_=from_,
            to=to,
            ended_at=ended_at,
            duration_seconds=duration_seconds,
            user_id=user_id,
            disposition=disposition,
            transcript=transcript,
            summary=summary,
            recording_key=recording_key,
            contact_id=contact_id,
            workspace_id=workspace_id,
        )

        return receive_call_completed_call_completed
