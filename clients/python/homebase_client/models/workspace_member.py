from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WorkspaceMember")


@_attrs_define
class WorkspaceMember:
    """
    Attributes:
        id (str): What a contact's owner_id and a lead's assignee_id name.
        name (str):
        email (str): The member's sign-in address. Masked as contacts' are unless the credential holds
            contacts:read:pii.
        pii_masked (bool): True when email and phone are masked.
        office_id (None | str):
        team_id (None | str):
        phone (None | str): The member's phone (E.164), where the AI's calls are transferred to (docs/voice.md); masked
            as email is. Null when not given.
        takes_leads (bool): Whether routing can give this member leads now: an enabled routing rule names them, or
            targets their team or office (docs/leads.md). Always false for a removed member.
        removed (bool): Removed from the workspace (no sign-in, no routing, no new work); the member stays listed, as
            contacts, leads and the timeline still name them.
        removed_at (datetime.datetime | None):
        created_at (datetime.datetime):
    """

    id: str
    name: str
    email: str
    pii_masked: bool
    office_id: None | str
    team_id: None | str
    phone: None | str
    takes_leads: bool
    removed: bool
    removed_at: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        email = self.email

        pii_masked = self.pii_masked

        office_id: None | str
        office_id = self.office_id

        team_id: None | str
        team_id = self.team_id

        phone: None | str
        phone = self.phone

        takes_leads = self.takes_leads

        removed = self.removed

        removed_at: None | str
        if isinstance(self.removed_at, datetime.datetime):
            removed_at = self.removed_at.isoformat()
        else:
            removed_at = self.removed_at

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "email": email,
                "pii_masked": pii_masked,
                "office_id": office_id,
                "team_id": team_id,
                "phone": phone,
                "takes_leads": takes_leads,
                "removed": removed,
                "removed_at": removed_at,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        email = d.pop("email")

        pii_masked = d.pop("pii_masked")

        def _parse_office_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        office_id = _parse_office_id(d.pop("office_id"))

        def _parse_team_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        team_id = _parse_team_id(d.pop("team_id"))

        def _parse_phone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone = _parse_phone(d.pop("phone"))

        takes_leads = d.pop("takes_leads")

        removed = d.pop("removed")

        def _parse_removed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                removed_at_type_0 = datetime.datetime.fromisoformat(data)

                return removed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        removed_at = _parse_removed_at(d.pop("removed_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        workspace_member = cls(
            id=id,
            name=name,
            email=email,
            pii_masked=pii_masked,
            office_id=office_id,
            team_id=team_id,
            phone=phone,
            takes_leads=takes_leads,
            removed=removed,
            removed_at=removed_at,
            created_at=created_at,
        )

        workspace_member.additional_properties = d
        return workspace_member

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
