from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.consent_in import ConsentIn
    from ..models.lead_create_context import LeadCreateContext


T = TypeVar("T", bound="LeadCreate")


@_attrs_define
class LeadCreate:
    """phone and source are required. context feeds routing: zip, city, price, tags,
    stage, office_id and team_id are read from it when present.

        Attributes:
            phone (str):
            source (str):
            first_name (None | str | Unset):
            last_name (None | str | Unset):
            email (None | str | Unset):
            source_ref (None | str | Unset):
            context (LeadCreateContext | Unset): Read by routing (zip, city, price, tags, stage, office_id, team_id) and
                kept whole. Free-form object: at most 16384 bytes as compact JSON, nesting depth 8, keys of at most 128
                characters, 512 values in all (members and array items at any depth); more is 400 naming this member.
            consent (ConsentIn | None | Unset): Evidence of consent; without it ai_outbound_allowed is false.
            skip_routing (bool | Unset): Create the lead without routing it. Default: False.
    """

    phone: str
    source: str
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    source_ref: None | str | Unset = UNSET
    context: LeadCreateContext | Unset = UNSET
    consent: ConsentIn | None | Unset = UNSET
    skip_routing: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        from ..models.consent_in import ConsentIn

        phone = self.phone

        source = self.source

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

        source_ref: None | str | Unset
        if isinstance(self.source_ref, Unset):
            source_ref = UNSET
        else:
            source_ref = self.source_ref

        context: dict[str, Any] | Unset = UNSET
        if not isinstance(self.context, Unset):
            context = self.context.to_dict()

        consent: dict[str, Any] | None | Unset
        if isinstance(self.consent, Unset):
            consent = UNSET
        elif isinstance(self.consent, ConsentIn):
            consent = self.consent.to_dict()
        else:
            consent = self.consent

        skip_routing = self.skip_routing

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "phone": phone,
                "source": source,
            }
        )
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if last_name is not UNSET:
            field_dict["last_name"] = last_name
        if email is not UNSET:
            field_dict["email"] = email
        if source_ref is not UNSET:
            field_dict["source_ref"] = source_ref
        if context is not UNSET:
            field_dict["context"] = context
        if consent is not UNSET:
            field_dict["consent"] = consent
        if skip_routing is not UNSET:
            field_dict["skip_routing"] = skip_routing

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.consent_in import ConsentIn
        from ..models.lead_create_context import LeadCreateContext

        d = dict(src_dict)
        phone = d.pop("phone")

        source = d.pop("source")

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

        def _parse_source_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_ref = _parse_source_ref(d.pop("source_ref", UNSET))

        _context = d.pop("context", UNSET)
        context: LeadCreateContext | Unset
        if isinstance(_context, Unset):
            context = UNSET
        else:
            context = LeadCreateContext.from_dict(_context)

        def _parse_consent(data: object) -> ConsentIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                consent_type_0 = ConsentIn.from_dict(data)

                return consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConsentIn | None | Unset, data)

        consent = _parse_consent(d.pop("consent", UNSET))

        skip_routing = d.pop("skip_routing", UNSET)

        lead_create = cls(
            phone=phone,
            source=source,
            first_name=first_name,
            last_name=last_name,
            email=email,
            source_ref=source_ref,
            context=context,
            consent=consent,
            skip_routing=skip_routing,
        )

        return lead_create
