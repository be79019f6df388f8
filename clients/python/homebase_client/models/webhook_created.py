from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookCreated")


@_attrs_define
class WebhookCreated:
    """
    Attributes:
        id (str):
        url (str):
        event_types (list[str]): [] means every event the subscription may read.
        secret_hint (str): The first characters of the secret, to tell subscriptions apart; the secret itself is shown
            once.
        created_at (datetime.datetime):
        secret (str | Unset): Signing secret: returned here once, never again. Absent from an `Idempotent-Replayed:
            true` answer: the secret is never stored, so a replay cannot show it.
    """

    id: str
    url: str
    event_types: list[str]
    secret_hint: str
    created_at: datetime.datetime
    secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        event_types = self.event_types

        secret_hint = self.secret_hint

        created_at = self.created_at.isoformat()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "event_types": event_types,
                "secret_hint": secret_hint,
                "created_at": created_at,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        event_types = cast(list[str], d.pop("event_types"))

        secret_hint = d.pop("secret_hint")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        secret = d.pop("secret", UNSET)

        webhook_created = cls(
            id=id,
            url=url,
            event_types=event_types,
            secret_hint=secret_hint,
            created_at=created_at,
            secret=secret,
        )

        webhook_created.additional_properties = d
        return webhook_created

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
