from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.contact_stage import ContactStage
from ..types import UNSET, Unset

T = TypeVar("T", bound="CampaignAudience")


@_attrs_define
class CampaignAudience:
    """The contacts list's filters (GET /v1/contacts), validated as it validates them and
    matched by the same listing.

        Attributes:
            stage (ContactStage | None | Unset): Only contacts in this stage.
            source (None | str | Unset): Only contacts with exactly this source.
            tag (None | str | Unset): Only contacts carrying this tag.
            q (None | str | Unset): Search, as GET /v1/contacts' `q` (its rules for email and phone).
            owner_id (None | str | Unset): Only contacts owned by this member.
    """

    stage: ContactStage | None | Unset = UNSET
    source: None | str | Unset = UNSET
    tag: None | str | Unset = UNSET
    q: None | str | Unset = UNSET
    owner_id: None | str | Unset = UNSET

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

        campaign_audience = cls(
            stage=stage,
            source=source,
            tag=tag,
            q=q,
            owner_id=owner_id,
        )

        return campaign_audience
