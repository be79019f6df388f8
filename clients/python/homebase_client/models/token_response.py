from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenResponse")


@_attrs_define
class TokenResponse:
    """
    Attributes:
        access_token (str): Send as `Authorization: Bearer <access_token>`.
        token_type (Literal['Bearer']):
        expires_in (int): Seconds the access token lives (3600).
        scope (str): The granted scopes, space-separated.
        tenant_id (str): The workspace the token acts on.
        refresh_token (None | str | Unset): Absent for client_credentials. Single use: each refresh returns a new one;
            presenting a used one revokes the whole family.
    """

    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int
    scope: str
    tenant_id: str
    refresh_token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        token_type = self.token_type

        expires_in = self.expires_in

        scope = self.scope

        tenant_id = self.tenant_id

        refresh_token: None | str | Unset
        if isinstance(self.refresh_token, Unset):
            refresh_token = UNSET
        else:
            refresh_token = self.refresh_token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access_token": access_token,
                "token_type": token_type,
                "expires_in": expires_in,
                "scope": scope,
                "tenant_id": tenant_id,
            }
        )
        if refresh_token is not UNSET:
            field_dict["refresh_token"] = refresh_token

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        access_token = d.pop("access_token")

        token_type = cast(Literal["Bearer"], d.pop("token_type"))
        if token_type != "Bearer":
            raise ValueError(
                f"token_type must match const 'Bearer', got '{token_type}'"
            )

        expires_in = d.pop("expires_in")

        scope = d.pop("scope")

        tenant_id = d.pop("tenant_id")

        def _parse_refresh_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        refresh_token = _parse_refresh_token(d.pop("refresh_token", UNSET))

        token_response = cls(
            access_token=access_token,
            token_type=token_type,
            expires_in=expires_in,
            scope=scope,
            tenant_id=tenant_id,
            refresh_token=refresh_token,
        )

        token_response.additional_properties = d
        return token_response

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
