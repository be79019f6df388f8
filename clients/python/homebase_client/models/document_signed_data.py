from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DocumentSignedData")


@_attrs_define
class DocumentSignedData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        document_id (str): the signing service's id
        name (str):
        signed_at (str):
        deal_id (None | str | Unset):
        contact_id (None | str | Unset):
        signer_name (None | str | Unset):
    """

    event_id: str
    occurred_at: datetime.datetime
    document_id: str
    name: str
    signed_at: str
    deal_id: None | str | Unset = UNSET
    contact_id: None | str | Unset = UNSET
    signer_name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        document_id = self.document_id

        name = self.name

        signed_at = self.signed_at

        deal_id: None | str | Unset
        if isinstance(self.deal_id, Unset):
            deal_id = UNSET
        else:
            deal_id = self.deal_id

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        signer_name: None | str | Unset
        if isinstance(self.signer_name, Unset):
            signer_name = UNSET
        else:
            signer_name = self.signer_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "document_id": document_id,
                "name": name,
                "signed_at": signed_at,
            }
        )
        if deal_id is not UNSET:
            field_dict["deal_id"] = deal_id
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if signer_name is not UNSET:
            field_dict["signer_name"] = signer_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        document_id = d.pop("document_id")

        name = d.pop("name")

        signed_at = d.pop("signed_at")

        def _parse_deal_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        deal_id = _parse_deal_id(d.pop("deal_id", UNSET))

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_signer_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signer_name = _parse_signer_name(d.pop("signer_name", UNSET))

        document_signed_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            document_id=document_id,
            name=name,
            signed_at=signed_at,
            deal_id=deal_id,
            contact_id=contact_id,
            signer_name=signer_name,
        )

        document_signed_data.additional_properties = d
        return document_signed_data

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
