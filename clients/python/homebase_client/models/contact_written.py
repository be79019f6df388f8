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
    from ..models.contact_written_custom_fields import ContactWrittenCustomFields
    from ..models.write_warning import WriteWarning


T = TypeVar("T", bound="ContactWritten")


@_attrs_define
class ContactWritten:
    """The contact as a create or update left it, and what the write warns about.

    Attributes:
        id (str):
        first_name (None | str):
        last_name (None | str):
        email (None | str): Masked unless the credential holds contacts:read:pii.
        phone (None | str): As sent (any text up to 32 characters). Masked (last four digits) unless the credential
            holds contacts:read:pii.
        phone_e164 (None | str): phone in E.164 (+14155550142), what matching and search use: read with the workspace's
            default_phone_region when it has no country code; null when phone is not a possible number. Masked as phone is
            unless the credential holds contacts:read:pii.
        stage (ContactStage):
        source (None | str):
        tags (list[str]):
        notes (None | str):
        owner_id (None | str):
        custom_fields (ContactWrittenCustomFields): The record's custom field values by key, for the workspace's live
            custom fields (GET /v1/custom-fields); a field without a value is absent. Text values are masked by value (phone
            numbers and email addresses inside them) unless the credential holds contacts:read:pii.
        pii_masked (bool): True when email and phone, if present, are masked.
        ai_auto_response_paused (bool): AI replies to this contact are paused: a person stepped in (a note, a message a
            person sent it through POST /v1/messages, POST .../ai/pause), the AI handed the conversation over, or it reached
            its daily cap. POST .../ai/resume clears it.
        ai_auto_response_paused_at (datetime.datetime | None): When the AI was paused (the first pause's time); null
            while it answers.
        ai_auto_response_paused_reason (ContactAiPauseReason | None): Why the AI is paused: note (a note was added),
            human_message (a person sent the contact a message), handoff (the AI handed the conversation to a person),
            daily_limit (the AI reached its cap of replies to this contact in 24 hours), manual (POST .../ai/pause), opt_out
            (the contact opted out by text; START resumes it). null while the AI answers.
        anonymized_at (datetime.datetime | None): When DELETE erased this contact's personal data; null otherwise.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        warnings (list[WriteWarning] | Unset): What the write kept as sent but may be wrong, one item per member;
            present only when there is something to say, whatever `fields` names. A warning never refuses the write.
    """

    id: str
    first_name: None | str
    last_name: None | str
    email: None | str
    phone: None | str
    phone_e164: None | str
    stage: ContactStage
    source: None | str
    tags: list[str]
    notes: None | str
    owner_id: None | str
    custom_fields: ContactWrittenCustomFields
    pii_masked: bool
    ai_auto_response_paused: bool
    ai_auto_response_paused_at: datetime.datetime | None
    ai_auto_response_paused_reason: ContactAiPauseReason | None
    anonymized_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    warnings: list[WriteWarning] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        first_name: None | str
        first_name = self.first_name

        last_name: None | str
        last_name = self.last_name

        email: None | str
        email = self.email

        phone: None | str
        phone = self.phone

        phone_e164: None | str
        phone_e164 = self.phone_e164

        stage = self.stage.value

        source: None | str
        source = self.source

        tags = self.tags

        notes: None | str
        notes = self.notes

        owner_id: None | str
        owner_id = self.owner_id

        custom_fields = self.custom_fields.to_dict()

        pii_masked = self.pii_masked

        ai_auto_response_paused = self.ai_auto_response_paused

        ai_auto_response_paused_at: None | str
        if isinstance(self.ai_auto_response_paused_at, datetime.datetime):
            ai_auto_response_paused_at = self.ai_auto_response_paused_at.isoformat()
        else:
            ai_auto_response_paused_at = self.ai_auto_response_paused_at

        ai_auto_response_paused_reason: None | str
        if isinstance(self.ai_auto_response_paused_reason, ContactAiPauseReason):
            ai_auto_response_paused_reason = self.ai_auto_response_paused_reason.value
        else:
            ai_auto_response_paused_reason = self.ai_auto_response_paused_reason

        anonymized_at: None | str
        if isinstance(self.anonymized_at, datetime.datetime):
            anonymized_at = self.anonymized_at.isoformat()
        else:
            anonymized_at = self.anonymized_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        warnings: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = []
            for warnings_item_data in self.warnings:
                warnings_item = warnings_item_data.to_dict()
                warnings.append(warnings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "first_name": first_name,
                "last_name": last_name,
                "email": email,
                "phone": phone,
                "phone_e164": phone_e164,
                "stage": stage,
                "source": source,
                "tags": tags,
                "notes": notes,
                "owner_id": owner_id,
                "custom_fields": custom_fields,
                "pii_masked": pii_masked,
                "ai_auto_response_paused": ai_auto_response_paused,
                "ai_auto_response_paused_at": ai_auto_response_paused_at,
                "ai_auto_response_paused_reason": ai_auto_response_paused_reason,
                "anonymized_at": anonymized_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contact_written_custom_fields import ContactWrittenCustomFields
        from ..models.write_warning import WriteWarning

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_first_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        first_name = _parse_first_name(d.pop("first_name"))

        def _parse_last_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_name = _parse_last_name(d.pop("last_name"))

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        def _parse_phone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone = _parse_phone(d.pop("phone"))

        def _parse_phone_e164(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone_e164 = _parse_phone_e164(d.pop("phone_e164"))

        stage = ContactStage(d.pop("stage"))

        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))

        tags = cast(list[str], d.pop("tags"))

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        def _parse_owner_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner_id = _parse_owner_id(d.pop("owner_id"))

        custom_fields = ContactWrittenCustomFields.from_dict(d.pop("custom_fields"))

        pii_masked = d.pop("pii_masked")

        ai_auto_response_paused = d.pop("ai_auto_response_paused")

        def _parse_ai_auto_response_paused_at(data: object) -> datetime.datetime | None:
            if data is None:
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
            return cast(datetime.datetime | None, data)

        ai_auto_response_paused_at = _parse_ai_auto_response_paused_at(
            d.pop("ai_auto_response_paused_at")
        )

        def _parse_ai_auto_response_paused_reason(
            data: object,
        ) -> ContactAiPauseReason | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ai_auto_response_paused_reason_type_0 = ContactAiPauseReason(data)

                return ai_auto_response_paused_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ContactAiPauseReason | None, data)

        ai_auto_response_paused_reason = _parse_ai_auto_response_paused_reason(
            d.pop("ai_auto_response_paused_reason")
        )

        def _parse_anonymized_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                anonymized_at_type_0 = datetime.datetime.fromisoformat(data)

                return anonymized_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        anonymized_at = _parse_anonymized_at(d.pop("anonymized_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _warnings = d.pop("warnings", UNSET)
        warnings: list[WriteWarning] | Unset = UNSET
        if _warnings is not UNSET:
            warnings = []
            for warnings_item_data in _warnings:
                warnings_item = WriteWarning.from_dict(warnings_item_data)

                warnings.append(warnings_item)

        contact_written = cls(
            id=id,
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
            pii_masked=pii_masked,
            ai_auto_response_paused=ai_auto_response_paused,
            ai_auto_response_paused_at=ai_auto_response_paused_at,
            ai_auto_response_paused_reason=ai_auto_response_paused_reason,
            anonymized_at=anonymized_at,
            created_at=created_at,
            updated_at=updated_at,
            warnings=warnings,
        )

        contact_written.additional_properties = d
        return contact_written

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
