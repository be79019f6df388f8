from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.persona_translations_additional_property import (
        PersonaTranslationsAdditionalProperty,
    )


T = TypeVar("T", bound="PersonaTranslations")


@_attrs_define
class PersonaTranslations:
    """By language, the persona's disclosure, handoff_reply, signature and opt_out_confirmation in it; a text left out is
    the persona's own field.

    """

    additional_properties: dict[str, PersonaTranslationsAdditionalProperty] = (
        _attrs_field(init=False, factory=dict)
    )

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.persona_translations_additional_property import (
            PersonaTranslationsAdditionalProperty,
        )

        d = dict(src_dict)
        persona_translations = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = PersonaTranslationsAdditionalProperty.from_dict(
                prop_dict
            )

            additional_properties[prop_name] = additional_property

        persona_translations.additional_properties = additional_properties
        return persona_translations

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> PersonaTranslationsAdditionalProperty:
        return self.additional_properties[key]

    def __setitem__(
        self, key: str, value: PersonaTranslationsAdditionalProperty
    ) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
