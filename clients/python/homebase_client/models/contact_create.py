from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.contact_stage import ContactStage
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contact_create_custom_fields_type_0 import (
        ContactCreateCustomFieldsType0,
    )


T = TypeVar("T", bound="ContactCreate")


@_attrs_define
class ContactCreate:
    """Every member is optional; stage defaults to LEAD and tags to [].

    Attributes:
        first_name (None | str | Unset):
        last_name (None | str | Unset):
        email (None | str | Unset):
        phone (None | str | Unset):
        stage (ContactStage | Unset):
        source (None | str | Unset):
        tags (list[str] | Unset): Duplicates are dropped.
        notes (None | str | Unset):
        owner_id (None | str | Unset):
        custom_fields (ContactCreateCustomFieldsType0 | None | Unset):
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
    custom_fields: ContactCreateCustomFieldsType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.contact_create_custom_fields_type_0 import (
            ContactCreateCustomFieldsType0,
        )

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

        custom_fields: dict[str, Any] | None | Unset
        if isinstance(self.custom_fields, Unset):
            custom_fields = UNSET
        elif isinstance(self.custom_fields, ContactCreateCustomFieldsType0):
            custom_fields = self.custom_fields.to_dict()
        else:
            custom_fields = self.custom_fields

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
        from ..models.contact_create_custom_fields_type_0 import (
            ContactCreateCustomFieldsType0,
        )

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

        def _parse_custom_fields(
            data: object,
        ) -> ContactCreateCustomFieldsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                custom_fields_type_0 = ContactCreateCustomFieldsType0.from_dict(data)

                return custom_fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ContactCreateCustomFieldsType0 | None | Unset, data)

        custom_fields = _parse_custom_fields(d.pop("custom_fields", UNSET))

        contact_create = cls(
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

        return contact_create
