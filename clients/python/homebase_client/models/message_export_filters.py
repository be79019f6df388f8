from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.message_channel import MessageChannel
from ..models.message_direction import MessageDirection
from ..models.message_status import MessageStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageExportFilters")


@_attrs_define
class MessageExportFilters:
    """
    Attributes:
        contact_id (None | str | Unset):
        channel (MessageChannel | None | Unset):
        direction (MessageDirection | None | Unset):
        status (MessageStatus | None | Unset):
        updated_after (datetime.datetime | None | Unset): Only records changed after this time (updated_at strictly
            greater), oldest change first, ordered by (updated_at, id); an ISO 8601 time with a zone offset or Z. A change
            is listed once it is a few seconds old (the settle delay, 5 s by default), and then never behind a position a
            walk has passed. To resume, pass the last record's updated_at: records stamped in that same millisecond may come
            again, so upsert by id (docs/sync.md). Other filters still apply; fields and masking are as usual. The next
            pages need only the cursor: it holds the walk's position and wins over updated_after.
    """

    contact_id: None | str | Unset = UNSET
    channel: MessageChannel | None | Unset = UNSET
    direction: MessageDirection | None | Unset = UNSET
    status: MessageStatus | None | Unset = UNSET
    updated_after: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        contact_id: None | str | Unset
        if isinstance(self.contact_id, Unset):
            contact_id = UNSET
        else:
            contact_id = self.contact_id

        channel: None | str | Unset
        if isinstance(self.channel, Unset):
            channel = UNSET
        elif isinstance(self.channel, MessageChannel):
            channel = self.channel.value
        else:
            channel = self.channel

        direction: None | str | Unset
        if isinstance(self.direction, Unset):
            direction = UNSET
        elif isinstance(self.direction, MessageDirection):
            direction = self.direction.value
        else:
            direction = self.direction

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, MessageStatus):
            status = self.status.value
        else:
            status = self.status

        updated_after: None | str | Unset
        if isinstance(self.updated_after, Unset):
            updated_after = UNSET
        elif isinstance(self.updated_after, datetime.datetime):
            updated_after = self.updated_after.isoformat()
        else:
            updated_after = self.updated_after

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if channel is not UNSET:
            field_dict["channel"] = channel
        if direction is not UNSET:
            field_dict["direction"] = direction
        if status is not UNSET:
            field_dict["status"] = status
        if updated_after is not UNSET:
            field_dict["updated_after"] = updated_after

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_contact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact_id = _parse_contact_id(d.pop("contact_id", UNSET))

        def _parse_channel(data: object) -> MessageChannel | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                channel_type_0 = MessageChannel(data)

                return channel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageChannel | None | Unset, data)

        channel = _parse_channel(d.pop("channel", UNSET))

        def _parse_direction(data: object) -> MessageDirection | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_0 = MessageDirection(data)

                return direction_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageDirection | None | Unset, data)

        direction = _parse_direction(d.pop("direction", UNSET))

        def _parse_status(data: object) -> MessageStatus | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = MessageStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageStatus | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_updated_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_after_type_0 = datetime.datetime.fromisoformat(data)

                return updated_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_after = _parse_updated_after(d.pop("updated_after", UNSET))

        message_export_filters = cls(
            contact_id=contact_id,
            channel=channel,
            direction=direction,
            status=status,
            updated_after=updated_after,
        )

        return message_export_filters
