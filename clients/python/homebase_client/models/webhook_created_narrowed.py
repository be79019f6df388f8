from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookCreatedNarrowed")


@_attrs_define
class WebhookCreatedNarrowed:
    """A WebhookCreated narrowed by the `fields` query parameter: only `id` are always present; every other member only
    when `fields` names it. Without `fields` the answer is a whole WebhookCreated.

        Attributes:
            id (str):
            url (str | Unset):
            event_types (list[str] | Unset): [] means every event the subscription may read.
            secret_hint (str | Unset): The first characters of the secret, to tell subscriptions apart; the secret itself is
                shown once.
            created_at (datetime.datetime | Unset):
            secret (str | Unset): Signing secret: returned here once, never again. Absent from an `Idempotent-Replayed:
                true` answer: the secret is never stored, so a replay cannot show it.
    """

    id: str
    url: str | Unset = UNSET
    event_types: list[str] | Unset = UNSET
    secret_hint: str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = self.event_types

        secret_hint = self.secret_hint

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if secret_hint is not UNSET:
            field_dict["secret_hint"] = secret_hint
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url", UNSET)

        event_types = cast(list[str], d.pop("event_types", UNSET))

        secret_hint = d.pop("secret_hint", UNSET)

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        secret = d.pop("secret", UNSET)

        webhook_created_narrowed = cls(
            id=id,
            url=url,
            event_types=event_types,
            secret_hint=secret_hint,
            created_at=created_at,
            secret=secret,
        )

        webhook_created_narrowed.additional_properties = d
        return webhook_created_narrowed

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
