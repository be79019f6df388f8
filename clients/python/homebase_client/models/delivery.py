from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status import DeliveryStatus

if TYPE_CHECKING:
    from ..models.attempt import Attempt


T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """
    Attributes:
        id (str): Sent as X-Webhook-Delivery; the same on every attempt.
        subscription_id (str):
        event_id (str):
        event_type (str):
        status (DeliveryStatus): failed: six attempts failed; cancelled: the subscription was deleted or disabled before
            it was made (last_error says which when disabled), or an app's grant no longer covers the event.
        attempts (int): Attempts in the current schedule (at most 6).
        next_attempt_at (datetime.datetime | None):
        last_status_code (int | None):
        last_error (None | str):
        created_at (datetime.datetime):
        completed_at (datetime.datetime | None):
        attempt_log (list[Attempt]): Every attempt, newest first.
    """

    id: str
    subscription_id: str
    event_id: str
    event_type: str
    status: DeliveryStatus
    attempts: int
    next_attempt_at: datetime.datetime | None
    last_status_code: int | None
    last_error: None | str
    created_at: datetime.datetime
    completed_at: datetime.datetime | None
    attempt_log: list[Attempt]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        subscription_id = self.subscription_id

        event_id = self.event_id

        event_type = self.event_type

        status = self.status.value

        attempts = self.attempts

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        last_status_code: int | None
        last_status_code = self.last_status_code

        last_error: None | str
        last_error = self.last_error

        created_at = self.created_at.isoformat()

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        attempt_log = []
        for attempt_log_item_data in self.attempt_log:
            attempt_log_item = attempt_log_item_data.to_dict()
            attempt_log.append(attempt_log_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "subscription_id": subscription_id,
                "event_id": event_id,
                "event_type": event_type,
                "status": status,
                "attempts": attempts,
                "next_attempt_at": next_attempt_at,
                "last_status_code": last_status_code,
                "last_error": last_error,
                "created_at": created_at,
                "completed_at": completed_at,
                "attempt_log": attempt_log,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attempt import Attempt

        d = dict(src_dict)
        id = d.pop("id")

        subscription_id = d.pop("subscription_id")

        event_id = d.pop("event_id")

        event_type = d.pop("event_type")

        status = DeliveryStatus(d.pop("status"))

        attempts = d.pop("attempts")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        attempt_log = []
        _attempt_log = d.pop("attempt_log")
        for attempt_log_item_data in _attempt_log:
            attempt_log_item = Attempt.from_dict(attempt_log_item_data)

            attempt_log.append(attempt_log_item)

        delivery = cls(
            id=id,
            subscription_id=subscription_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            last_status_code=last_status_code,
            last_error=last_error,
            created_at=created_at,
            completed_at=completed_at,
            attempt_log=attempt_log,
        )

        delivery.additional_properties = d
        return delivery

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
