from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contact_updated_data_custom_fields import (
        ContactUpdatedDataCustomFields,
    )


T = TypeVar("T", bound="ContactUpdatedData")


@_attrs_define
class ContactUpdatedData:
    """
    Attributes:
        event_id (str): Stable across redeliveries; deduplicate on it.
        occurred_at (datetime.datetime):
        id (str): contact id
        stage (str):
        tags (list[str]):
        custom_fields (ContactUpdatedDataCustomFields): values by key of the live custom fields (text masked)
        pii_masked (bool): always true in events
        ai_auto_response_paused (bool): the AI's replies to the contact are paused
        created_at (str):
        updated_at (str):
        changed (list[str]): names of changed fields
        first_name (None | str | Unset):
        last_name (None | str | Unset):
        email (None | str | Unset): masked
        phone (None | str | Unset): masked
        phone_e164 (None | str | Unset): phone in E.164, masked
        source (None | str | Unset):
        notes (None | str | Unset):
        owner_id (None | str | Unset):
        ai_auto_response_paused_at (None | str | Unset): when the AI was paused
        ai_auto_response_paused_reason (None | str | Unset): note, human_message, handoff, daily_limit, manual or
            opt_out; null while the AI answers
        anonymized_at (None | str | Unset): set by DELETE
    """

    event_id: str
    occurred_at: datetime.datetime
    id: str
    stage: str
    tags: list[str]
    custom_fields: ContactUpdatedDataCustomFields
    pii_masked: bool
    ai_auto_response_paused: bool
    created_at: str
    updated_at: str
    changed: list[str]
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    phone_e164: None | str | Unset = UNSET
    source: None | str | Unset = UNSET
    notes: None | str | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    ai_auto_response_paused_at: None | str | Unset = UNSET
    ai_auto_response_paused_reason: None | str | Unset = UNSET
    anonymized_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        occurred_at = self.occurred_at.isoformat()

        id = self.id

        stage = self.stage

        tags = self.tags

        custom_fields = self.custom_fields.to_dict()

        pii_masked = self.pii_masked

        ai_auto_response_paused = self.ai_auto_response_paused

        created_at = self.created_at

        updated_at = self.updated_at

        changed = self.changed

        first_name: None | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        last_name: None | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        phone_e164: None | str | Unset
        if isinstance(self.phone_e164, Unset):
            phone_e164 = UNSET
        else:
            phone_e164 = self.phone_e164

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        ai_auto_response_paused_at: None | str | Unset
        if isinstance(self.ai_auto_response_paused_at, Unset):
            ai_auto_response_paused_at = UNSET
        else:
            ai_auto_response_paused_at = self.ai_auto_response_paused_at

        ai_auto_response_paused_reason: None | str | Unset
        if isinstance(self.ai_auto_response_paused_reason, Unset):
            ai_auto_response_paused_reason = UNSET
        else:
            ai_auto_response_paused_reason = self.ai_auto_response_paused_reason

        anonymized_at: None | str | Unset
        if isinstance(self.anonymized_at, Unset):
            anonymized_at = UNSET
        else:
            anonymized_at = self.anonymized_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "occurred_at": occurred_at,
                "id": id,
                "stage": stage,
                "tags": tags,
                "custom_fields": custom_fields,
                "pii_masked": pii_masked,
                "ai_auto_response_paused": ai_auto_response_paused,
                "created_at": created_at,
                "updated_at": updated_at,
                "changed": changed,
            }
        )
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if last_name is not UNSET:
            field_dict["last_name"] = last_name
        if email is not UNSET:
            field_dict["email"] = email
        if phone is not UNSET:
            field_dict["phone"] = phone
        if phone_e164 is not UNSET:
            field_dict["phone_e164"] = phone_e164
        if source is not UNSET:
            field_dict["source"] = source
        if notes is not UNSET:
            field_dict["notes"] = notes
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id
        if ai_auto_response_paused_at is not UNSET:
            field_dict["ai_auto_response_paused_at"] = ai_auto_response_paused_at
        if ai_auto_response_paused_reason is not UNSET:
            field_dict["ai_auto_response_paused_reason"] = (
                ai_auto_response_paused_reason
            )
        if anonymized_at is not UNSET:
            field_dict["anonymized_at"] = anonymized_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contact_updated_data_custom_fields import (
            ContactUpdatedDataCustomFields,
        )

        d = dict(src_dict)
        event_id = d.pop("event_id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        id = d.pop("id")

        stage = d.pop("stage")

        tags = cast(list[str], d.pop("tags"))

        custom_fields = ContactUpdatedDataCustomFields.from_dict(d.pop("custom_fields"))

        pii_masked = d.pop("pii_masked")

        ai_auto_response_paused = d.pop("ai_auto_response_paused")

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        changed = cast(list[str], d.pop("changed"))

        def _parse_first_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_name = _parse_first_name(d.pop("first_name", UNSET))

        def _parse_last_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_name = _parse_last_name(d.pop("last_name", UNSET))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        def _parse_phone_e164(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_e164 = _parse_phone_e164(d.pop("phone_e164", UNSET))

        def _parse_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("owner_id", UNSET))

        def _parse_ai_auto_response_paused_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ai_auto_response_paused_at = _parse_ai_auto_response_paused_at(
            d.pop("ai_auto_response_paused_at", UNSET)
        )

        def _parse_ai_auto_response_paused_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ai_auto_response_paused_reason = _parse_ai_auto_response_paused_reason(
            d.pop("ai_auto_response_paused_reason", UNSET)
        )

        def _parse_anonymized_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        anonymized_at = _parse_anonymized_at(d.pop("anonymized_at", UNSET))

        contact_updated_data = cls(
            event_id=event_id,
            occurred_at=occurred_at,
            id=id,
            stage=stage,
            tags=tags,
            custom_fields=custom_fields,
            pii_masked=pii_masked,
            ai_auto_response_paused=ai_auto_response_paused,
            created_at=created_at,
            updated_at=updated_at,
            changed=changed,
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone=phone,
            phone_e164=phone_e164,
            source=source,
            notes=notes,
            owner_id=owner_id,
            ai_auto_response_paused_at=ai_auto_response_paused_at,
            ai_auto_response_paused_reason=ai_auto_response_paused_reason,
            anonymized_at=anonymized_at,
        )

        contact_updated_data.additional_properties = d
        return contact_updated_data

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
