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

from ..types import UNSET, Unset

T = TypeVar("T", bound="WaitStep")


@_attrs_define
class WaitStep:
    """Pauses the enrolment; the next step runs on the first tick after the wait.

    Attributes:
        type_ (Literal['wait']):
        days (int | Unset):  Default: 0.
        hours (int | Unset):  Default: 0.
        minutes (int | Unset):  Default: 0.
        seconds (int | Unset):  Default: 0.
    """

    type_: Literal["wait"]
    days: int | Unset = 0
    hours: int | Unset = 0
    minutes: int | Unset = 0
    seconds: int | Unset = 0

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        days = self.days

        hours = self.hours

        minutes = self.minutes

        seconds = self.seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if days is not UNSET:
            field_dict["days"] = days
        if hours is not UNSET:
            field_dict["hours"] = hours
        if minutes is not UNSET:
            field_dict["minutes"] = minutes
        if seconds is not UNSET:
            field_dict["seconds"] = seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["wait"], d.pop("type"))
        if type_ != "wait":
            raise ValueError(f"type must match const 'wait', got '{type_}'")

        days = d.pop("days", UNSET)

        hours = d.pop("hours", UNSET)

        minutes = d.pop("minutes", UNSET)

        seconds = d.pop("seconds", UNSET)

        wait_step = cls(
            type_=type_,
            days=days,
            hours=hours,
            minutes=minutes,
            seconds=seconds,
        )

        return wait_step
