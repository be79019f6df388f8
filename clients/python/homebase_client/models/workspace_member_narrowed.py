from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WorkspaceMemberNarrowed")


@_attrs_define
class WorkspaceMemberNarrowed:
    """A WorkspaceMember narrowed by the `fields` query parameter: only `id`, `pii_masked` are always present; every other
    member only when `fields` names it. Without `fields` the answer is a whole WorkspaceMember.

        Attributes:
            id (str): What a contact's owner_id and a lead's assignee_id name.
            pii_masked (bool): True when email and phone are masked.
            name (str | Unset):
            email (str | Unset): The member's sign-in address. Masked as contacts' are unless the credential holds
                contacts:read:pii.
            office_id (None | str | Unset):
            team_id (None | str | Unset):
            phone (None | str | Unset): The member's phone (E.164), where the AI's calls are transferred to (docs/voice.md);
                masked as email is. Null when not given.
            takes_leads (bool | Unset): Whether routing can give this member leads now: an enabled routing rule names them,
                or targets their team or office (docs/leads.md). Always false for a removed member.
            removed (bool | Unset): Removed from the workspace (no sign-in, no routing, no new work); the member stays
                listed, as contacts, leads and the timeline still name them.
            removed_at (datetime.datetime | None | Unset):
            created_at (datetime.datetime | Unset):
    """

    id: str
    pii_masked: bool
    name: str | Unset = UNSET
    email: str | Unset = UNSET
    office_id: None | str | Unset = UNSET
    team_id: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    takes_leads: bool | Unset = UNSET
    removed: bool | Unset = UNSET
    removed_at: datetime.datetime | None | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pii_masked = self.pii_masked

        name = self.name

        email = self.email

        office_id: None | str | Unset
        if isinstance(self.office_id, Unset):
            office_id = UNSET
        else:
            office_id = self.office_id

        team_id: None | str | Unset
        if isinstance(self.team_id, Unset):
            team_id = UNSET
        else:
            team_id = self.team_id

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        takes_leads = self.takes_leads

        removed = self.removed

        removed_at: None | str | Unset
        if isinstance(self.removed_at, Unset):
            removed_at = UNSET
        elif isinstance(self.removed_at, datetime.datetime):
            removed_at = self.removed_at.isoformat()
        else:
            removed_at = self.removed_at

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
        if name is not UNSET:
            field_dict["name"] = name
        if email is not UNSET:
            field_dict["email"] = email
        if office_id is not UNSET:
            field_dict["office_id"] = office_id
        if team_id is not UNSET:
            field_dict["team_id"] = team_id
        if phone is not UNSET:
            field_dict["phone"] = phone
        if takes_leads is not UNSET:
            field_dict["takes_leads"] = takes_leads
        if removed is not UNSET:
            field_dict["removed"] = removed
        if removed_at is not UNSET:
            field_dict["removed_at"] = removed_at
        if created_at is not UNSET:
            field_dict["created_at"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        pii_masked = d.pop("pii_masked")

        name = d.pop("name", UNSET)

        email = d.pop("email", UNSET)

        def _parse_office_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        office_id = _parse_office_id(d.pop("office_id", UNSET))

        def _parse_team_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team_id = _parse_team_id(d.pop("team_id", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        takes_leads = d.pop("takes_leads", UNSET)

        removed = d.pop("removed", UNSET)

        def _parse_removed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                removed_at_type_0 = datetime.datetime.fromisoformat(data)

                return removed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        removed_at = _parse_removed_at(d.pop("removed_at", UNSET))

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        workspace_member_narrowed = cls(
            id=id,
            pii_masked=pii_masked,
            name=name,
            email=email,
            office_id=office_id,
            team_id=team_id,
            phone=phone,
            takes_leads=takes_leads,
            removed=removed,
            removed_at=removed_at,
            created_at=created_at,
        )

        workspace_member_narrowed.additional_properties = d
        return workspace_member_narrowed

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
