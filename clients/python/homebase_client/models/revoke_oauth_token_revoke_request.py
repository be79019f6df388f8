from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.revoke_oauth_token_revoke_request_token_type_hint_type_0 import (
    RevokeOauthTokenRevokeRequestTokenTypeHintType0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="RevokeOauthTokenRevokeRequest")


@_attrs_define
class RevokeOauthTokenRevokeRequest:
    """
    Attributes:
        token (str): The token to revoke; empty is refused (invalid_request).
        token_type_hint (None | RevokeOauthTokenRevokeRequestTokenTypeHintType0 | Unset): Accepted and not needed: every
            token is found by its value.
        client_id (None | str | Unset): Optional client authentication.
        client_secret (None | str | Unset):
    """

    token: str
    token_type_hint: None | RevokeOauthTokenRevokeRequestTokenTypeHintType0 | Unset = (
        UNSET
    )
    client_id: None | str | Unset = UNSET
    client_secret: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        token_type_hint: None | str | Unset
        if isinstance(self.token_type_hint, Unset):
            token_type_hint = UNSET
        elif isinstance(
            self.token_type_hint, RevokeOauthTokenRevokeRequestTokenTypeHintType0
        ):
            token_type_hint = self.token_type_hint.value
        else:
            token_type_hint = self.token_type_hint

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        client_secret: None | str | Unset
        if isinstance(self.client_secret, Unset):
            client_secret = UNSET
        else:
            client_secret = self.client_secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "token": token,
            }
        )
        if token_type_hint is not UNSET:
            field_dict["token_type_hint"] = token_type_hint
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        def _parse_token_type_hint(
            data: object,
        ) -> None | RevokeOauthTokenRevokeRequestTokenTypeHintType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                token_type_hint_type_0 = (
                    RevokeOauthTokenRevokeRequestTokenTypeHintType0(data)
                )

                return token_type_hint_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None | RevokeOauthTokenRevokeRequestTokenTypeHintType0 | Unset, data
            )

        token_type_hint = _parse_token_type_hint(d.pop("token_type_hint", UNSET))

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("client_id", UNSET))

        def _parse_client_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_secret = _parse_client_secret(d.pop("client_secret", UNSET))

        revoke_oauth_token_revoke_request = cls(
            token=token,
            token_type_hint=token_type_hint,
            client_id=client_id,
            client_secret=client_secret,
        )

        revoke_oauth_token_revoke_request.additional_properties = d
        return revoke_oauth_token_revoke_request

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
