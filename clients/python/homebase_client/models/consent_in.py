from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.consent_in_form_snapshot_type_0 import ConsentInFormSnapshotType0


T = TypeVar("T", bound="ConsentIn")


@_attrs_define
class ConsentIn:
    """Evidence of consent captured with the lead; every member is optional.

    Attributes:
        captured_at (datetime.datetime | float | None | Unset): When the person consented; defaults to when it was
            recorded. An RFC 3339 date-time (without an offset, UTC) or a Unix time number: seconds (1763658238), or
            milliseconds when its magnitude passes 20000000000 (1763658238000, as JavaScript's Date.now() gives). In UTC it
            must fall within the years 1 to 9999.
        source_url (None | str | Unset):
        ip (None | str | Unset):
        form_snapshot (ConsentInFormSnapshotType0 | None | Unset): What the person saw and ticked, kept as evidence.
            Free-form object: at most 16384 bytes as compact JSON, nesting depth 8, keys of at most 128 characters, 512
            values in all (members and array items at any depth); more is 400 naming this member.
        ai_voice (bool | None | Unset): The person agreed to calls in an artificial (AI) voice, its own consent (an
            addition to the spec's object, docs/voice.md): the AI calls only a number whose unexpired artifact has ai_voice
            true. ai_outbound_allowed keeps meaning texts.
    """

    captured_at: datetime.datetime | float | None | Unset = UNSET
    source_url: None | str | Unset = UNSET
    ip: None | str | Unset = UNSET
    form_snapshot: ConsentInFormSnapshotType0 | None | Unset = UNSET
    ai_voice: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.consent_in_form_snapshot_type_0 import ConsentInFormSnapshotType0

        captured_at: float | None | str | Unset
        if isinstance(self.captured_at, Unset):
            captured_at = UNSET
        elif isinstance(self.captured_at, datetime.datetime):
            captured_at = self.captured_at.isoformat()
        else:
            captured_at = self.captured_at

        source_url: None | str | Unset
        if isinstance(self.source_url, Unset):
            source_url = UNSET
        else:
            source_url = self.source_url

        ip: None | str | Unset
        if isinstance(self.ip, Unset):
            ip = UNSET
        else:
            ip = self.ip

        form_snapshot: dict[str, Any] | None | Unset
        if isinstance(self.form_snapshot, Unset):
            form_snapshot = UNSET
        elif isinstance(self.form_snapshot, ConsentInFormSnapshotType0):
            form_snapshot = self.form_snapshot.to_dict()
        else:
            form_snapshot = self.form_snapshot

        ai_voice: bool | None | Unset
        if isinstance(self.ai_voice, Unset):
            ai_voice = UNSET
        else:
            ai_voice = self.ai_voice

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if captured_at is not UNSET:
            field_dict["captured_at"] = captured_at
        if source_url is not UNSET:
            field_dict["source_url"] = source_url
        if ip is not UNSET:
            field_dict["ip"] = ip
        if form_snapshot is not UNSET:
            field_dict["form_snapshot"] = form_snapshot
        if ai_voice is not UNSET:
            field_dict["ai_voice"] = ai_voice

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.consent_in_form_snapshot_type_0 import ConsentInFormSnapshotType0

        d = dict(src_dict)

        def _parse_captured_at(
            data: object,
        ) -> datetime.datetime | float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                captured_at_type_0_type_0 = datetime.datetime.fromisoformat(data)

                return captured_at_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | float | None | Unset, data)

        captured_at = _parse_captured_at(d.pop("captured_at", UNSET))

        def _parse_source_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_url = _parse_source_url(d.pop("source_url", UNSET))

        def _parse_ip(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ip = _parse_ip(d.pop("ip", UNSET))

        def _parse_form_snapshot(
            data: object,
        ) -> ConsentInFormSnapshotType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                form_snapshot_type_0 = ConsentInFormSnapshotType0.from_dict(data)

                return form_snapshot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConsentInFormSnapshotType0 | None | Unset, data)

        form_snapshot = _parse_form_snapshot(d.pop("form_snapshot", UNSET))

        def _parse_ai_voice(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        ai_voice = _parse_ai_voice(d.pop("ai_voice", UNSET))

        consent_in = cls(
            captured_at=captured_at,
            source_url=source_url,
            ip=ip,
            form_snapshot=form_snapshot,
            ai_voice=ai_voice,
        )

        return consent_in
