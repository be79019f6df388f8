from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.lead_written_narrowed_routing_status import (
    LeadWrittenNarrowedRoutingStatus,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.lead_written_narrowed_context import LeadWrittenNarrowedContext
    from ..models.write_warning import WriteWarning


T = TypeVar("T", bound="LeadWrittenNarrowed")


@_attrs_define
class LeadWrittenNarrowed:
    """A LeadWritten narrowed by the `fields` query parameter: only `id`, `pii_masked` are always present; every other
    member only when `fields` names it. Without `fields` the answer is a whole LeadWritten.

        Attributes:
            id (str):
            pii_masked (bool):
            contact_id (None | str | Unset): The contact this lead was linked to (matched by phone or email, or created);
                null when the lead had neither a usable phone nor an email.
            first_name (None | str | Unset):
            last_name (None | str | Unset):
            email (None | str | Unset): Masked unless the credential holds contacts:read:pii.
            phone (str | Unset): As sent. Masked unless the credential holds contacts:read:pii.
            phone_e164 (None | str | Unset): phone in E.164 (+14155550142), what matching and search use: read with the
                workspace's default_phone_region when it has no country code; null when phone is not a possible number. Masked
                as phone is unless the credential holds contacts:read:pii.
            source (str | Unset):
            source_ref (None | str | Unset):
            context (LeadWrittenNarrowedContext | Unset):
            ai_outbound_allowed (bool | Unset): True while an unexpired consent artifact covers this lead's number.
            consent_id (None | str | Unset):
            consent_expires_at (datetime.datetime | None | Unset):
            routing_status (LeadWrittenNarrowedRoutingStatus | Unset): skipped: created with skip_routing; unassigned: no
                rule applied.
            assignee_id (None | str | Unset):
            assigned_at (datetime.datetime | None | Unset):
            routing_rule_id (None | str | Unset):
            routing_method (None | str | Unset): agent, round_robin, first_available, or manual (POST /leads/{id}/assign
                with assignee_id).
            routing_reason (None | str | Unset):
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
            warnings (list[WriteWarning] | Unset): What the write kept as sent but may be wrong, one item per member;
                present only when there is something to say, whatever `fields` names. A warning never refuses the write.
    """

    id: str
    pii_masked: bool
    contact_id: None | str | Unset = UNSET
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    phone: str | Unset = UNSET
    phone_e164: None | str | Unset = UNSET
    source: str | Unset = UNSET
    source_ref: None | str | Unset = UNSET
    context: LeadWrittenNarrowedContext | Unset = UNSET
    ai_outbound_allowed: bool | Unset = UNSET
    consent_id: None | str | Unset = UNSET
    consent_expires_at: datetime.datetime | None | Unset = UNSET
    routing_status: LeadWrittenNarrowedRoutingStatus | Unset = UNSET
    assignee_id: None | str | Unset = UNSET
    assigned_at: datetime.datetime | None | Unset = UNSET
    routing_rule_id: None | str | Unset = UNSET
    routing_method: None | str | Unset = UNSET
    routing_reason: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    warnings: list[WriteWarning] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pii_masked = self.pii_masked

        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

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

        phone = self.phone

        phone_e164: None | str | Unset
        if isinstance(self.phone_e164, Unset):
            phone_e164 = UNSET
        else:
            phone_e164 = self.phone_e164

        source = self.source

        source_ref: None | str | Unset
        if isinstance(self.source_ref, Unset):
            source_ref = UNSET
        else:
            source_ref = self.source_ref

        context: dict[str, Any] | Unset = UNSET
        if not isinstance(self.context, Unset):
            context = self.context.to_dict()

        ai_outbound_allowed = self.ai_outbound_allowed

        consent_id: None | str | Unset
        if isinstance(self.consent_id, Unset):
            consent_id = UNSET
        else:
            consent_id = self.consent_id

        consent_expires_at: None | str | Unset
        if isinstance(self.consent_expires_at, Unset):
            consent_expires_at = UNSET
        elif isinstance(self.consent_expires_at, datetime.datetime):
            consent_expires_at = self.consent_expires_at.isoformat()
        else:
            consent_expires_at = self.consent_expires_at

        routing_status: str | Unset = UNSET
        if not isinstance(self.routing_status, Unset):
            routing_status = self.routing_status.value

        assignee_id: None | str | Unset
        if isinstance(self.assignee_id, Unset):
            assignee_id = UNSET
        else:
            assignee_id = self.assignee_id

        assigned_at: None | str | Unset
        if isinstance(self.assigned_at, Unset):
            assigned_at = UNSET
        elif isinstance(self.assigned_at, datetime.datetime):
            assigned_at = self.assigned_at.isoformat()
        else:
            assigned_at = self.assigned_at

        routing_rule_id: None | str | Unset
        if isinstance(self.routing_rule_id, Unset):
            routing_rule_id = UNSET
        else:
            routing_rule_id = self.routing_rule_id

        routing_method: None | str | Unset
        if isinstance(self.routing_method, Unset):
            routing_method = UNSET
        else:
            routing_method = self.routing_method

        routing_reason: None | str | Unset
        if isinstance(self.routing_reason, Unset):
            routing_reason = UNSET
        else:
            routing_reason = self.routing_reason

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
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
                "pii_masked": pii_masked,
            }
        )
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
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
        if source_ref is not UNSET:
            field_dict["source_ref"] = source_ref
        if context is not UNSET:
            field_dict["context"] = context
        if ai_outbound_allowed is not UNSET:
            field_dict["ai_outbound_allowed"] = ai_outbound_allowed
        if consent_id is not UNSET:
            field_dict["consent_id"] = consent_id
        if consent_expires_at is not UNSET:
            field_dict["consent_expires_at"] = consent_expires_at
        if routing_status is not UNSET:
            field_dict["routing_status"] = routing_status
        if assignee_id is not UNSET:
            field_dict["assignee_id"] = assignee_id
        if assigned_at is not UNSET:
            field_dict["assigned_at"] = assigned_at
        if routing_rule_id is not UNSET:
            field_dict["routing_rule_id"] = routing_rule_id
        if routing_method is not UNSET:
            field_dict["routing_method"] = routing_method
        if routing_reason is not UNSET:
            field_dict["routing_reason"] = routing_reason
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.lead_written_narrowed_context import LeadWrittenNarrowedContext
        from ..models.write_warning import WriteWarning

        d = dict(src_dict)
        id = d.pop("id")

        pii_masked = d.pop("pii_masked")

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

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

        phone = d.pop("phone", UNSET)

        def _parse_phone_e164(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_e164 = _parse_phone_e164(d.pop("phone_e164", UNSET))

        source = d.pop("source", UNSET)

        def _parse_source_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_ref = _parse_source_ref(d.pop("source_ref", UNSET))

        _context = d.pop("context", UNSET)
        context: LeadWrittenNarrowedContext | Unset
        if isinstance(_context, Unset):
            context = UNSET
        else:
            context = LeadWrittenNarrowedContext.from_dict(_context)

        ai_outbound_allowed = d.pop("ai_outbound_allowed", UNSET)

        def _parse_consent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        consent_id = _parse_consent_id(d.pop("consent_id", UNSET))

        def _parse_consent_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                consent_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return consent_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        consent_expires_at = _parse_consent_expires_at(
            d.pop("consent_expires_at", UNSET)
        )

        _routing_status = d.pop("routing_status", UNSET)
        routing_status: LeadWrittenNarrowedRoutingStatus | Unset
        if isinstance(_routing_status, Unset):
            routing_status = UNSET
        else:
            routing_status = LeadWrittenNarrowedRoutingStatus(_routing_status)

        def _parse_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id", UNSET))

        def _parse_assigned_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                assigned_at_type_0 = datetime.datetime.fromisoformat(data)

                return assigned_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        assigned_at = _parse_assigned_at(d.pop("assigned_at", UNSET))

        def _parse_routing_rule_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        routing_rule_id = _parse_routing_rule_id(d.pop("routing_rule_id", UNSET))

        def _parse_routing_method(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        routing_method = _parse_routing_method(d.pop("routing_method", UNSET))

        def _parse_routing_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        routing_reason = _parse_routing_reason(d.pop("routing_reason", UNSET))

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

        _warnings = d.pop("warnings", UNSET)
        warnings: list[WriteWarning] | Unset = UNSET
        if _warnings is not UNSET:
            warnings = []
            for warnings_item_data in _warnings:
                warnings_item = WriteWarning.from_dict(warnings_item_data)

                warnings.append(warnings_item)

        lead_written_narrowed = cls(
            id=id,
            pii_masked=pii_masked,
            contact_id=contact_id,
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone=phone,
            phone_e164=phone_e164,
            source=source,
            source_ref=source_ref,
            context=context,
            ai_outbound_allowed=ai_outbound_allowed,
            consent_id=consent_id,
            consent_expires_at=consent_expires_at,
            routing_status=routing_status,
            assignee_id=assignee_id,
            assigned_at=assigned_at,
            routing_rule_id=routing_rule_id,
            routing_method=routing_method,
            routing_reason=routing_reason,
            created_at=created_at,
            updated_at=updated_at,
            warnings=warnings,
        )

        lead_written_narrowed.additional_properties = d
        return lead_written_narrowed

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
