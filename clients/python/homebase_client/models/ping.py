from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Ping")


@_attrs_define
class Ping:
    """
    Attributes:
        ok (bool):
        tenant_id (str): The workspace this credential acts on.
        credential (str): Kind of credential: api_key or oauth_token.
        credential_id (str):
        scopes (list[str]): Scopes as granted (implied scopes not listed).
        rate_limit_per_min (int):
        api_version (str):
    """

    ok: bool
    tenant_id: str
    credential: str
    credential_id: str
    scopes: list[str]
    rate_limit_per_min: int
    api_version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        tenant_id = self.tenant_id

        credential = self.credential

        credential_id = self.credential_id

        scopes = self.scopes

        rate_limit_per_min = self.rate_limit_per_min

        api_version = self.api_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ok": ok,
                "tenant_id": tenant_id,
                "credential": credential,
                "credential_id": credential_id,
                "scopes": scopes,
                "rate_limit_per_min": rate_limit_per_min,
                "api_version": api_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ok = d.pop("ok")

        tenant_id = d.pop("tenant_id")

        credential = d.pop("credential")

        credential_id = d.pop("credential_id")

        scopes = cast(list[str], d.pop("scopes"))

        rate_limit_per_min = d.pop("rate_limit_per_min")

        api_version = d.pop("api_version")

        ping = cls(
            ok=ok,
            tenant_id=tenant_id,
            credential=credential,
            credential_id=credential_id,
            scopes=scopes,
            rate_limit_per_min=rate_limit_per_min,
            api_version=api_version,
        )

        ping.additional_properties = d
        return ping

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
