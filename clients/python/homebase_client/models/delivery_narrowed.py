from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_narrowed_status import DeliveryNarrowedStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attempt import Attempt


T = TypeVar("T", bound="DeliveryNarrowed")


@_attrs_define
class DeliveryNarrowed:
    """A Delivery narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Delivery.

        Attributes:
            id (str): Sent as X-Webhook-Delivery; the same on every attempt.
            subscription_id (str | Unset):
            event_id (str | Unset):
            event_type (str | Unset):
            status (DeliveryNarrowedStatus | Unset): failed: six attempts failed; cancelled: the subscription was deleted or
                disabled before it was made (last_error says which when disabled), or an app's grant no longer covers the event.
            attempts (int | Unset): Attempts in the current schedule (at most 6).
            next_attempt_at (datetime.datetime | None | Unset):
            last_status_code (int | None | Unset):
            last_error (None | str | Unset):
            created_at (datetime.datetime | Unset):
            completed_at (datetime.datetime | None | Unset):
            attempt_log (list[Attempt] | Unset): Every attempt, newest first.
    """

    id: str
    subscription_id: str | Unset = UNSET
    event_id: str | Unset = UNSET
    event_type: str | Unset = UNSET
    status: DeliveryNarrowedStatus | Unset = UNSET
    attempts: int | Unset = UNSET
    next_attempt_at: datetime.datetime | None | Unset = UNSET
    last_status_code: int | None | Unset = UNSET
    last_error: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    completed_at: datetime.datetime | None | Unset = UNSET
    attempt_log: list[Attempt] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        subscription_id = self.subscription_id

        event_id = self.event_id

        event_type = self.event_type

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        attempts = self.attempts

        next_attempt_at: None | str | Unset
        if isinstance(self.next_attempt_at, Unset):
            next_attempt_at = UNSET
        elif isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        last_status_code: int | None | Unset
        if isinstance(self.last_status_code, Unset):
            last_status_code = UNSET
        else:
            last_status_code = self.last_status_code

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        completed_at: None | str | Unset
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        elif isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        attempt_log: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.attempt_log, Unset):
            attempt_log = []
            for attempt_log_item_data in self.attempt_log:
                attempt_log_item = attempt_log_item_data.to_dict()
                attempt_log.append(attempt_log_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if subscription_id is not UNSET:
            field_dict["subscription_id"] = subscription_id
        if event_id is not UNSET:
            field_dict["event_id"] = event_id
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if status is not UNSET:
            field_dict["status"] = status
        if attempts is not UNSET:
            field_dict["attempts"] = attempts
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at
        if last_status_code is not UNSET:
            field_dict["last_status_code"] = last_status_code
        if last_error is not UNSET:
            field_dict["last_error"] = last_error
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at
        if attempt_log is not UNSET:
            field_dict["attempt_log"] = attempt_log

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attempt import Attempt

        d = dict(src_dict)
        id = d.pop("id")

        subscription_id = d.pop("subscription_id", UNSET)

        event_id = d.pop("event_id", UNSET)

        event_type = d.pop("event_type", UNSET)

        _status = d.pop("status", UNSET)
        status: DeliveryNarrowedStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = DeliveryNarrowedStatus(_status)

        attempts = d.pop("attempts", UNSET)

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at", UNSET))

        def _parse_last_status_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code", UNSET))

        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("last_error", UNSET))

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        def _parse_completed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        completed_at = _parse_completed_at(d.pop("completed_at", UNSET))

        _attempt_log = d.pop("attempt_log", UNSET)
        attempt_log: list[Attempt] | Unset = UNSET
        if _attempt_log is not UNSET:
            attempt_log = []
            for attempt_log_item_data in _attempt_log:
                attempt_log_item = Attempt.from_dict(attempt_log_item_data)

                attempt_log.append(attempt_log_item)

        delivery_narrowed = cls(
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

        delivery_narrowed.additional_properties = d
        return delivery_narrowed

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
