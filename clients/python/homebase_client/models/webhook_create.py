from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.webhook_create_event_types_item import WebhookCreateEventTypesItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookCreate")


@_attrs_define
class WebhookCreate:
    """
    Attributes:
        url (str): The receiving address: an absolute http or https URL with a host, without user name, password or
            fragment. https is required in production; addresses on loopback, private, link-local or metadata networks are
            refused, and so is a host that does not resolve, or not within the server's DNS time limit (2 s unless
            configured).
        event_types (list[WebhookCreateEventTypesItem] | Unset): Event names from the catalogue; an empty array (the
            default) subscribes to every event the credential's scopes may read. Naming an event the credential may not read
            is refused (403, details.missing_scope).
    """

    url: str
    event_types: list[WebhookCreateEventTypesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for event_types_item_data in self.event_types:
                event_types_item = event_types_item_data.value
                event_types.append(event_types_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if event_types is not UNSET:
            field_dict["event_types"] = event_types

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        _event_types = d.pop("event_types", UNSET)
        event_types: list[WebhookCreateEventTypesItem] | Unset = UNSET
        if _event_types is not UNSET:
            event_types = []
            for event_types_item_data in _event_types:
                event_types_item = WebhookCreateEventTypesItem(event_types_item_data)

                event_types.append(event_types_item)

        webhook_create = cls(
            url=url,
            event_types=event_types,
        )

        return webhook_create
