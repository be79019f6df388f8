from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.attempt_outcome import AttemptOutcome

T = TypeVar("T", bound="Attempt")


@_attrs_define
class Attempt:
    """
    Attributes:
        id (str):
        number (int): 1 for the first attempt; redeliveries continue counting.
        outcome (AttemptOutcome): abandoned: the worker making it stopped before it finished (its lease expired); the
            attempt counts as one of the six.
        status_code (int | None):
        latency_ms (int | None):
        error (None | str):
        started_at (datetime.datetime):
        finished_at (datetime.datetime | None):
    """

    id: str
    number: int
    outcome: AttemptOutcome
    status_code: int | None
    latency_ms: int | None
    error: None | str
    started_at: datetime.datetime
    finished_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        number = self.number

        outcome = self.outcome.value

        status_code: int | None
        status_code = self.status_code

        latency_ms: int | None
        latency_ms = self.latency_ms

        error: None | str
        error = self.error

        started_at = self.started_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "number": number,
                "outcome": outcome,
                "status_code": status_code,
                "latency_ms": latency_ms,
                "error": error,
                "started_at": started_at,
                "finished_at": finished_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        number = d.pop("number")

        outcome = AttemptOutcome(d.pop("outcome"))

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        def _parse_latency_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        latency_ms = _parse_latency_ms(d.pop("latency_ms"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        attempt = cls(
            id=id,
            number=number,
            outcome=outcome,
            status_code=status_code,
            latency_ms=latency_ms,
            error=error,
            started_at=started_at,
            finished_at=finished_at,
        )

        attempt.additional_properties = d
        return attempt

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
