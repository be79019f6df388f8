from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="EnrollRequest")


@_attrs_define
class EnrollRequest:
    """
    Attributes:
        contact_id (str): A contact of this workspace.
    """

    contact_id: str

    def to_dict(self) -> dict[str, Any]:
        contact_id = self.contact_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "contact_id": contact_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        contact_id = d.pop("contact_id")

        enroll_request = cls(
            contact_id=contact_id,
        )

        return enroll_request
