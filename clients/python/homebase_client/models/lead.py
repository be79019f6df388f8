from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.lead_routing_status import LeadRoutingStatus

if TYPE_CHECKING:
    from ..models.lead_context import LeadContext


T = TypeVar("T", bound="Lead")


@_attrs_define
class Lead:
    """
    Attributes:
        id (str):
        contact_id (None | str): The contact this lead was linked to (matched by phone or email, or created); null when
            the lead had neither a usable phone nor an email.
        first_name (None | str):
        last_name (None | str):
        email (None | str): Masked unless the credential holds contacts:read:pii.
        phone (str): As sent. Masked unless the credential holds contacts:read:pii.
        phone_e164 (None | str): phone in E.164 (+14155550142), what matching and search use: read with the workspace's
            default_phone_region when it has no country code; null when phone is not a possible number. Masked as phone is
            unless the credential holds contacts:read:pii.
        pii_masked (bool):
        source (str):
        source_ref (None | str):
        context (LeadContext):
        ai_outbound_allowed (bool): True while an unexpired consent artifact covers this lead's number.
        consent_id (None | str):
        consent_expires_at (datetime.datetime | None):
        routing_status (LeadRoutingStatus): skipped: created with skip_routing; unassigned: no rule applied.
        assignee_id (None | str):
        assigned_at (datetime.datetime | None):
        routing_rule_id (None | str):
        routing_method (None | str): agent, round_robin, first_available, or manual (POST /leads/{id}/assign with
            assignee_id).
        routing_reason (None | str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    contact_id: None | str
    first_name: None | str
    last_name: None | str
    email: None | str
    phone: str
    phone_e164: None | str
    pii_masked: bool
    source: str
    source_ref: None | str
    context: LeadContext
    ai_outbound_allowed: bool
    consent_id: None | str
    consent_expires_at: datetime.datetime | None
    routing_status: LeadRoutingStatus
    assignee_id: None | str
    assigned_at: datetime.datetime | None
    routing_rule_id: None | str
    routing_method: None | str
    routing_reason: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contact_id: None | str
        contact_id = self.contact_id

        first_name: None | str
        first_name = self.first_name

        last_name: None | str
        last_name = self.last_name

        email: None | str
        email = self.email

        phone = self.phone

        phone_e164: None | str
        phone_e164 = self.phone_e164

        pii_masked = self.pii_masked

        source = self.source

        source_ref: None | str
        source_ref = self.source_ref

        context = self.context.to_dict()

        ai_outbound_allowed = self.ai_outbound_allowed

        consent_id: None | str
        consent_id = self.consent_id

        consent_expires_at: None | str
        if isinstance(self.consent_expires_at, datetime.datetime):
            consent_expires_at = self.consent_expires_at.isoformat()
        else:
            consent_expires_at = self.consent_expires_at

        routing_status = self.routing_status.value

        assignee_id: None | str
        assignee_id = self.assignee_id

        assigned_at: None | str
        if isinstance(self.assigned_at, datetime.datetime):
            assigned_at = self.assigned_at.isoformat()
        else:
            assigned_at = self.assigned_at

        routing_rule_id: None | str
        routing_rule_id = self.routing_rule_id

        routing_method: None | str
        routing_method = self.routing_method

        routing_reason: None | str
        routing_reason = self.routing_reason

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "contact_id": contact_id,
                "first_name": first_name,
                "last_name": last_name,
                "email": email,
                "phone": phone,
                "phone_e164": phone_e164,
                "pii_masked": pii_masked,
                "source": source,
                "source_ref": source_ref,
                "context": context,
                "ai_outbound_allowed": ai_outbound_allowed,
                "consent_id": consent_id,
                "consent_expires_at": consent_expires_at,
                "routing_status": routing_status,
                "assignee_id": assignee_id,
                "assigned_at": assigned_at,
                "routing_rule_id": routing_rule_id,
                "routing_method": routing_method,
                "routing_reason": routing_reason,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.lead_context import LeadContext

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_contact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_id = _parse_contact_id(d.pop("contact_id"))

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

        phone = d.pop("phone")

        def _parse_phone_e164(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone_e164 = _parse_phone_e164(d.pop("phone_e164"))

        pii_masked = d.pop("pii_masked")

        source = d.pop("source")

        def _parse_source_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_ref = _parse_source_ref(d.pop("source_ref"))

        context = LeadContext.from_dict(d.pop("context"))

        ai_outbound_allowed = d.pop("ai_outbound_allowed")

        def _parse_consent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        consent_id = _parse_consent_id(d.pop("consent_id"))

        def _parse_consent_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                consent_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return consent_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        consent_expires_at = _parse_consent_expires_at(d.pop("consent_expires_at"))

        routing_status = LeadRoutingStatus(d.pop("routing_status"))

        def _parse_assignee_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee_id = _parse_assignee_id(d.pop("assignee_id"))

        def _parse_assigned_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                assigned_at_type_0 = datetime.datetime.fromisoformat(data)

                return assigned_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        assigned_at = _parse_assigned_at(d.pop("assigned_at"))

        def _parse_routing_rule_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        routing_rule_id = _parse_routing_rule_id(d.pop("routing_rule_id"))

        def _parse_routing_method(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        routing_method = _parse_routing_method(d.pop("routing_method"))

        def _parse_routing_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        routing_reason = _parse_routing_reason(d.pop("routing_reason"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        lead = cls(
            id=id,
            contact_id=contact_id,
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone=phone,
            phone_e164=phone_e164,
            pii_masked=pii_masked,
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
        )

        lead.additional_properties = d
        return lead

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
