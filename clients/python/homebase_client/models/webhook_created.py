from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_created_disabled_reason_type_0 import (
    WebhookCreatedDisabledReasonType0,
)
from ..models.webhook_created_status import WebhookCreatedStatus
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
        status (WebhookCreatedStatus): disabled: no deliveries are queued for it (events still reach GET /v1/events);
            PATCH status active re-enables it.
        disabled_reason (None | WebhookCreatedDisabledReasonType0): Why it is disabled; null while active. failing:
            every attempt failed, none succeeding, for HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS (5 days unless configured) from
            failing_since. paused: a client (PATCH status disabled) or a member in the console disabled it.
        disabled_at (datetime.datetime | None): When it was disabled; null while active.
        failing_since (datetime.datetime | None): The first failed attempt since the last success (or creation, or re-
            enabling); null when the last attempt succeeded or none failed yet. A failed attempt
            HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS or more after it disables the subscription.
        created_at (datetime.datetime):
        secret (str | Unset): Signing secret: returned here once, never again. Absent from an `Idempotent-Replayed:
            true` answer: the secret is never stored, so a replay cannot show it.
    """

    id: str
    url: str
    event_types: list[str]
    secret_hint: str
    status: WebhookCreatedStatus
    disabled_reason: None | WebhookCreatedDisabledReasonType0
    disabled_at: datetime.datetime | None
    failing_since: datetime.datetime | None
    created_at: datetime.datetime
    secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        event_types = self.event_types

        secret_hint = self.secret_hint

        status = self.status.value

        disabled_reason: None | str
        if isinstance(self.disabled_reason, WebhookCreatedDisabledReasonType0):
            disabled_reason = self.disabled_reason.value
        else:
            disabled_reason = self.disabled_reason

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

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
                "status": status,
                "disabled_reason": disabled_reason,
                "disabled_at": disabled_at,
                "failing_since": failing_since,
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

        status = WebhookCreatedStatus(d.pop("status"))

        def _parse_disabled_reason(
            data: object,
        ) -> None | WebhookCreatedDisabledReasonType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_reason_type_0 = WebhookCreatedDisabledReasonType0(data)

                return disabled_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookCreatedDisabledReasonType0, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabled_at"))

        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)

                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        secret = d.pop("secret", UNSET)

        webhook_created = cls(
            id=id,
            url=url,
            event_types=event_types,
            secret_hint=secret_hint,
            status=status,
            disabled_reason=disabled_reason,
            disabled_at=disabled_at,
            failing_since=failing_since,
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
