from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_envelope_event import EventEnvelopeEvent

if TYPE_CHECKING:
    from ..models.event_envelope_data import EventEnvelopeData


T = TypeVar("T", bound="EventEnvelope")


@_attrs_define
class EventEnvelope:
    """A stored event, exactly as its webhook delivery carries it. Phone numbers and email
    addresses in `data` are masked unless the credential holds contacts:read:pii.

        Attributes:
            event (EventEnvelopeEvent): The event's type: a catalogue event name.
            tenant_id (str): The workspace.
            occurred_at (datetime.datetime):
            data (EventEnvelopeData): `event_id` and `occurred_at`, then the members of the event's type: each type's
                are documented in this document's `webhooks` section (one operation per event).
    """

    event: EventEnvelopeEvent
    tenant_id: str
    occurred_at: datetime.datetime
    data: EventEnvelopeData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event = self.event.value

        tenant_id = self.tenant_id

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "tenantId": tenant_id,
                "occurredAt": occurred_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_envelope_data import EventEnvelopeData

        d = dict(src_dict)
        event = EventEnvelopeEvent(d.pop("event"))

        tenant_id = d.pop("tenantId")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))

        data = EventEnvelopeData.from_dict(d.pop("data"))

        event_envelope = cls(
            event=event,
            tenant_id=tenant_id,
            occurred_at=occurred_at,
            data=data,
        )

        event_envelope.additional_properties = d
        return event_envelope

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
