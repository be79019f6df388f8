from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.contact_stage import ContactStage
from ..types import UNSET, Unset

T = TypeVar("T", bound="ContactExportFilters")


@_attrs_define
class ContactExportFilters:
    """
    Attributes:
        stage (ContactStage | None | Unset): Only contacts in this stage.
        source (None | str | Unset): Only contacts with exactly this source.
        tag (None | str | Unset): Only contacts carrying this tag.
        q (None | str | Unset): Search: first, last or full name by substring (any case). Email and phone by substring
            for credentials holding contacts:read:pii; for others only an exact email address or phone number matches.
        owner_id (None | str | Unset): Only contacts owned by this member.
        updated_after (datetime.datetime | None | Unset): Only records changed after this time (updated_at strictly
            greater), oldest change first, ordered by (updated_at, id); an ISO 8601 time with a zone offset or Z. A change
            is listed once it is a few seconds old (the settle delay, 5 s by default), and then never behind a position a
            walk has passed. To resume, pass the last record's updated_at: records stamped in that same millisecond may come
            again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking are as usual. The next
            pages need only the cursor: it holds the walk's position and wins over updated_after.
    """

    stage: ContactStage | None | Unset = UNSET
    source: None | str | Unset = UNSET
    tag: None | str | Unset = UNSET
    q: None | str | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    updated_after: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        stage: None | str | Unset
        if isinstance(self.stage, Unset):
            stage = UNSET
        elif isinstance(self.stage, ContactStage):
            stage = self.stage.value
        else:
            stage = self.stage

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source

        tag: None | str | Unset
        if isinstance(self.tag, Unset):
            tag = UNSET
        else:
            tag = self.tag

        q: None | str | Unset
        if isinstance(self.q, Unset):
            q = UNSET
        else:
            q = self.q

        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        updated_after: None | str | Unset
        if isinstance(self.updated_after, Unset):
            updated_after = UNSET
        elif isinstance(self.updated_after, datetime.datetime):
            updated_after = self.updated_after.isoformat()
        else:
            updated_after = self.updated_after

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if stage is not UNSET:
            field_dict["stage"] = stage
        if source is not UNSET:
            field_dict["source"] = source
        if tag is not UNSET:
            field_dict["tag"] = tag
        if q is not UNSET:
            field_dict["q"] = q
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id
        if updated_after is not UNSET:
            field_dict["updated_after"] = updated_after

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_stage(data: object) -> ContactStage | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stage_type_0 = ContactStage(data)

                return stage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ContactStage | None | Unset, data)

        stage = _parse_stage(d.pop("stage", UNSET))

        def _parse_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        def _parse_tag(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tag = _parse_tag(d.pop("tag", UNSET))

        def _parse_q(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        q = _parse_q(d.pop("q", UNSET))

        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("owner_id", UNSET))

        def _parse_updated_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_after_type_0 = datetime.datetime.fromisoformat(data)

                return updated_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_after = _parse_updated_after(d.pop("updated_after", UNSET))

        contact_export_filters = cls(
            stage=stage,
            source=source,
            tag=tag,
            q=q,
            owner_id=owner_id,
            updated_after=updated_after,
        )

        return contact_export_filters
