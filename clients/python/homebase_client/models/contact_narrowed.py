from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.contact_ai_pause_reason import ContactAiPauseReason
from ..models.contact_stage import ContactStage
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contact_narrowed_custom_fields import ContactNarrowedCustomFields


T = TypeVar("T", bound="ContactNarrowed")


@_attrs_define
class ContactNarrowed:
    """A Contact narrowed by the `fields` query parameter: only `id`, `pii_masked` are always present; every other member
    only when `fields` names it. Without `fields` the answer is a whole Contact.

        Attributes:
            id (str):
            pii_masked (bool): True when email and phone, if present, are masked.
            first_name (None | str | Unset):
            last_name (None | str | Unset):
            email (None | str | Unset): Masked unless the credential holds contacts:read:pii.
            phone (None | str | Unset): As sent (any text up to 32 characters). Masked (last four digits) unless the
                credential holds contacts:read:pii.
            phone_e164 (None | str | Unset): phone in E.164 (+14155550142), what matching and search use: read with the
                workspace's default_phone_region when it has no country code; null when phone is not a possible number. Masked
                as phone is unless the credential holds contacts:read:pii.
            stage (ContactStage | Unset):
            source (None | str | Unset):
            tags (list[str] | Unset):
            notes (None | str | Unset):
            owner_id (None | str | Unset):
            custom_fields (ContactNarrowedCustomFields | Unset): The record's custom field values by key, for the
                workspace's live custom fields (GET /v1/custom-fields); a field without a value is absent. Text values are
                masked by value (phone numbers and email addresses inside them) unless the credential holds contacts:read:pii.
            ai_auto_response_paused (bool | Unset): AI replies to this contact are paused: a person stepped in (a note, a
                message a person sent it through POST /v1/messages, POST .../ai/pause), the AI handed the conversation over, or
                it reached its daily cap. POST .../ai/resume clears it.
            ai_auto_response_paused_at (datetime.datetime | None | Unset): When the AI was paused (the first pause's time);
                null while it answers.
            ai_auto_response_paused_reason (ContactAiPauseReason | None | Unset): Why the AI is paused: note (a note was
                added), human_message (a person sent the contact a message), handoff (the AI handed the conversation to a
                person), daily_limit (the AI reached its cap of replies to this contact in 24 hours), manual (POST
                .../ai/pause), opt_out (the contact opted out by text; START resumes it). null while the AI answers.
            anonymized_at (datetime.datetime | None | Unset): When DELETE erased this contact's personal data; null
                otherwise.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    pii_masked: bool
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    phone_e164: None | str | Unset = UNSET
    stage: ContactStage | Unset = UNSET
    source: None | str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    notes: None | str | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    custom_fields: ContactNarrowedCustomFields | Unset = UNSET
    ai_auto_response_paused: bool | Unset = UNSET
    ai_auto_response_paused_at: datetime.datetime | None | Unset = UNSET
    ai_auto_response_paused_reason: ContactAiPauseReason | None | Unset = UNSET
    anonymized_at: datetime.datetime | None | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pii_masked = self.pii_masked

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

        ai_auto_response_paused = self.ai_auto_response_paused

        ai_auto_response_paused_at: None | str | Unset
        if isinstance(self.ai_auto_response_paused_at, Unset):
            ai_auto_response_paused_at = UNSET
        elif isinstance(self.ai_auto_response_paused_at, datetime.datetime):
            ai_auto_response_paused_at = self.ai_auto_response_paused_at.isoformat()
        else:
            ai_auto_response_paused_at = self.ai_auto_response_paused_at

        ai_auto_response_paused_reason: None | str | Unset
        if isinstance(self.ai_auto_response_paused_reason, Unset):
            ai_auto_response_paused_reason = UNSET
        elif isinstance(self.ai_auto_response_paused_reason, ContactAiPauseReason):
            ai_auto_response_paused_reason = self.ai_auto_response_paused_reason.value
        else:
            ai_auto_response_paused_reason = self.ai_auto_response_paused_reason

        anonymized_at: None | str | Unset
        if isinstance(self.anonymized_at, Unset):
            anonymized_at = UNSET
        elif isinstance(self.anonymized_at, datetime.datetime):
            anonymized_at = self.anonymized_at.isoformat()
        else:
            anonymized_at = self.anonymized_at

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "pii_masked": pii_masked,
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
        if ai_auto_response_paused is not UNSET:
            field_dict["ai_auto_response_paused"] = ai_auto_response_paused
        if ai_auto_response_paused_at is not UNSET:
            field_dict["ai_auto_response_paused_at"] = ai_auto_response_paused_at
        if ai_auto_response_paused_reason is not UNSET:
            field_dict["ai_auto_response_paused_reason"] = (
                ai_auto_response_paused_reason
            )
        if anonymized_at is not UNSET:
            field_dict["anonymized_at"] = anonymized_at
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contact_narrowed_custom_fields import ContactNarrowedCustomFields

        d = dict(src_dict)
        id = d.pop("id")

        pii_masked = d.pop("pii_masked")

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
        custom_fields: ContactNarrowedCustomFields | Unset
        if isinstance(_custom_fields, Unset):
            custom_fields = UNSET
        else:
            custom_fields = ContactNarrowedCustomFields.from_dict(_custom_fields)

        ai_auto_response_paused = d.pop("ai_auto_response_paused", UNSET)

        def _parse_ai_auto_response_paused_at(
            data: object,
        ) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ai_auto_response_paused_at_type_0 = datetime.datetime.fromisoformat(
                    data
                )

                return ai_auto_response_paused_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        ai_auto_response_paused_at = _parse_ai_auto_response_paused_at(
            d.pop("ai_auto_response_paused_at", UNSET)
        )

        def _parse_ai_auto_response_paused_reason(
            data: object,
        ) -> ContactAiPauseReason | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ai_auto_response_paused_reason_type_0 = ContactAiPauseReason(data)

                return ai_auto_response_paused_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ContactAiPauseReason | None | Unset, data)

        ai_auto_response_paused_reason = _parse_ai_auto_response_paused_reason(
            d.pop("ai_auto_response_paused_reason", UNSET)
        )

        def _parse_anonymized_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                anonymized_at_type_0 = datetime.datetime.fromisoformat(data)

                return anonymized_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        anonymized_at = _parse_anonymized_at(d.pop("anonymized_at", UNSET))

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        contact_narrowed = cls(
            id=id,
            pii_masked=pii_masked,
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone=phone,
            phone_e164=phone_e164,
            stage=stage,
            source=source,
            tags=tags,
            notes=notes,
            owner_id=owner_id,
            custom_fields=custom_fields,
            ai_auto_response_paused=ai_auto_response_paused,
            ai_auto_response_paused_at=ai_auto_response_paused_at,
            ai_auto_response_paused_reason=ai_auto_response_paused_reason,
            anonymized_at=anonymized_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        contact_narrowed.additional_properties = d
        return contact_narrowed

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
