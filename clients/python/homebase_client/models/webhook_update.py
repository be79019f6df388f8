from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.webhook_update_event_types_item import WebhookUpdateEventTypesItem
from ..models.webhook_update_status import WebhookUpdateStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookUpdate")


@_attrs_define
class WebhookUpdate:
    """Any of status, url and event_types; at least one. The secret never changes.

    Attributes:
        status (WebhookUpdateStatus | Unset): active: re-enables a disabled subscription and clears its failure streak
            (deliveries are queued again for events from now on; what was cancelled stays cancelled); it needs the scopes
            the subscription carries (403 otherwise). disabled: pauses it, as the service does to one that keeps failing:
            nothing is queued and its pending deliveries are cancelled. Sending the status it already has changes nothing.
        url (str | Unset): The receiving address: an absolute http or https URL with a host, without user name, password
            or fragment. https is required in production; addresses on loopback, private, link-local or metadata networks
            are refused, and so is a host that does not resolve, or not within the server's DNS time limit (2 s unless
            configured). Pending deliveries and retries go to the new address; a new address clears the failure streak.
            Needs the scopes the subscription carries (403 otherwise); an OAuth app may change it only on a subscription it
            created.
        event_types (list[WebhookUpdateEventTypesItem] | Unset): As at creation ([] is every event the subscription may
            read); for events dispatched from now on. Naming or dropping an event the credential may not read is 403
            (details.missing_scope); one the subscription itself may not read (its creator's scopes, or for an app's
            subscription its grant's) is 400: create another subscription for it.
    """

    status: WebhookUpdateStatus | Unset = UNSET
    url: str | Unset = UNSET
    event_types: list[WebhookUpdateEventTypesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for event_types_item_data in self.event_types:
                event_types_item = event_types_item_data.value
                event_types.append(event_types_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["event_types"] = event_types

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: WebhookUpdateStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = WebhookUpdateStatus(_status)

        url = d.pop("url", UNSET)

        _event_types = d.pop("event_types", UNSET)
        event_types: list[WebhookUpdateEventTypesItem] | Unset = UNSET
        if _event_types is not UNSET:
            event_types = []
            for event_types_item_data in _event_types:
                event_types_item = WebhookUpdateEventTypesItem(event_types_item_data)

                event_types.append(event_types_item)

        webhook_update = cls(
            status=status,
            url=url,
            event_types=event_types,
        )

        return webhook_update
