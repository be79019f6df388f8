from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.contact_stage import ContactStage
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contact_update_custom_fields import ContactUpdateCustomFields


T = TypeVar("T", bound="ContactUpdate")


@_attrs_define
class ContactUpdate:
    """Any subset. first_name, last_name, email, phone, source, notes and owner_id accept
    null to clear them; stage, tags and custom_fields do not. tags replaces the whole
    list; custom_fields merges into the contact's (null for a key removes its value).

        Attributes:
            first_name (None | str | Unset):
            last_name (None | str | Unset):
            email (None | str | Unset):
            phone (None | str | Unset):
            stage (ContactStage | Unset):
            source (None | str | Unset):
            tags (list[str] | Unset):
            notes (None | str | Unset):
            owner_id (None | str | Unset):
            custom_fields (ContactUpdateCustomFields | Unset): Custom field values by key (GET /v1/custom-fields). On
                create, the values to set; on update, merged into the record's: a key sent replaces its value, null removes it,
                keys not sent are kept. Each value is checked against its field's type; an unknown key or a bad value is 400
                naming custom_fields.<key>. At most 100 members; a multi_select value at most 50 choices. The record's
                custom_fields after the write are at most 32768 bytes as compact UTF-8 JSON (no spaces, characters as
                themselves), keyed as GET shows them unmasked: 400 naming custom_fields beyond, unless the write does not grow a
                record already past it.
    """

    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    stage: ContactStage | Unset = UNSET
    source: None | str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    notes: None | str | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    custom_fields: ContactUpdateCustomFields | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
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

        stage: str | Unset = UNSET
        if not isinstance(self.stage, Unset):
            stage = self.stage.value

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

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

        custom_fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom_fields, Unset):
            custom_fields = self.custom_fields.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if last_name is not UNSET:
            field_dict["last_name"] = last_name
        if email is not UNSET:
            field_dict["email"] = email
        if phone is not UNSET:
            field_dict["phone"] = phone
        if stage is not UNSET:
            field_dict["stage"] = stage
        if source is not UNSET:
            field_dict["source"] = source
        if tags is not UNSET:
            field_dict["tags"] = tags
        if notes is not UNSET:
            field_dict["notes"] = notes
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id
        if custom_fields is not UNSET:
            field_dict["custom_fields"] = custom_fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contact_update_custom_fields import ContactUpdateCustomFields

        d = dict(src_dict)

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

        _stage = d.pop("stage", UNSET)
        stage: ContactStage | Unset
        if isinstance(_stage, Unset):
            stage = UNSET
        else:
            stage = ContactStage(_stage)

        def _parse_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

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

        _custom_fields = d.pop("custom_fields", UNSET)
        custom_fields: ContactUpdateCustomFields | Unset
        if isinstance(_custom_fields, Unset):
            custom_fields = UNSET
        else:
            custom_fields = ContactUpdateCustomFields.from_dict(_custom_fields)

        contact_update = cls(
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone=phone,
            stage=stage,
            source=source,
            tags=tags,
            notes=notes,
            owner_id=owner_id,
            custom_fields=custom_fields,
        )

        return contact_update
