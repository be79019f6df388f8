from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_opt_outs import AiOptOuts
    from ..models.ai_stats_narrowed_handoffs import AiStatsNarrowedHandoffs
    from ..models.ai_stats_narrowed_replies_withheld import (
        AiStatsNarrowedRepliesWithheld,
    )


T = TypeVar("T", bound="AiStatsNarrowed")


@_attrs_define
class AiStatsNarrowed:
    """A AiStats narrowed by the `fields` query parameter: only  are always present; every other member only when `fields`
    names it. Without `fields` the answer is a whole AiStats.

        Attributes:
            from_ (datetime.datetime | Unset): Start of the range, inclusive.
            to (datetime.datetime | Unset): End of the range, exclusive.
            persona_id (None | str | Unset): The persona the numbers are limited to, or null for every one.
            conversations (int | Unset): Contacts with an inbound text (SMS or WhatsApp) in the range; with persona_id,
                those of them whose texts an AI job of the persona took.
            engaged (int | Unset): Of the conversations, the contacts an AI reply reached in the range.
            replies_sent (int | Unset): AI replies to the conversations that the provider took in the range (a handoff's
                holding text and refused sends are not replies).
            reply_seconds_median (float | None | Unset): Median seconds from the lead's latest text before a reply to the
                provider taking that reply (nearest rank); null without replies.
            reply_seconds_p90 (float | None | Unset): 90th percentile of the same (nearest rank); null without replies.
            showings_booked (int | Unset): Showings the AI booked (book_showing performed) in the range.
            qualification_values_set (int | Unset): Contact fields set_qualification wrote in the range, one per value.
            handoffs (AiStatsNarrowedHandoffs | Unset): Handoffs in the range by reason; a reason with none is left out.
            opt_outs (AiOptOuts | Unset):
            replies_withheld (AiStatsNarrowedRepliesWithheld | Unset): Replies the model composed that code kept back in the
                range, by rule: too_long, email, link, phone (a reply_rule handoff), unverified_commitment, working_with_agent;
                a rule with none is left out.
    """

    from_: datetime.datetime | Unset = UNSET
    to: datetime.datetime | Unset = UNSET
    persona_id: None | str | Unset = UNSET
    conversations: int | Unset = UNSET
    engaged: int | Unset = UNSET
    replies_sent: int | Unset = UNSET
    reply_seconds_median: float | None | Unset = UNSET
    reply_seconds_p90: float | None | Unset = UNSET
    showings_booked: int | Unset = UNSET
    qualification_values_set: int | Unset = UNSET
    handoffs: AiStatsNarrowedHandoffs | Unset = UNSET
    opt_outs: AiOptOuts | Unset = UNSET
    replies_withheld: AiStatsNarrowedRepliesWithheld | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_: str | Unset = UNSET
        if not isinstance(self.from_, Unset):
            from_ = self.from_.isoformat()

        to: str | Unset = UNSET
        if not isinstance(self.to, Unset):
            to = self.to.isoformat()

        persona_id: None | str | Unset
        if isinstance(self.persona_id, Unset):
            persona_id = UNSET
        else:
            persona_id = self.persona_id

        conversations = self.conversations

        engaged = self.engaged

        replies_sent = self.replies_sent

        reply_seconds_median: float | None | Unset
        if isinstance(self.reply_seconds_median, Unset):
            reply_seconds_median = UNSET
        else:
            reply_seconds_median = self.reply_seconds_median

        reply_seconds_p90: float | None | Unset
        if isinstance(self.reply_seconds_p90, Unset):
            reply_seconds_p90 = UNSET
        else:
            reply_seconds_p90 = self.reply_seconds_p90

        showings_booked = self.showings_booked

        qualification_values_set = self.qualification_values_set

        handoffs: dict[str, Any] | Unset = UNSET
        if not isinstance(self.handoffs, Unset):
            handoffs = self.handoffs.to_dict()

        opt_outs: dict[str, Any] | Unset = UNSET
        if not isinstance(self.opt_outs, Unset):
            opt_outs = self.opt_outs.to_dict()

        replies_withheld: dict[str, Any] | Unset = UNSET
        if not isinstance(self.replies_withheld, Unset):
            replies_withheld = self.replies_withheld.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to
        if persona_id is not UNSET:
            field_dict["persona_id"] = persona_id
        if conversations is not UNSET:
            field_dict["conversations"] = conversations
        if engaged is not UNSET:
            field_dict["engaged"] = engaged
        if replies_sent is not UNSET:
            field_dict["replies_sent"] = replies_sent
        if reply_seconds_median is not UNSET:
            field_dict["reply_seconds_median"] = reply_seconds_median
        if reply_seconds_p90 is not UNSET:
            field_dict["reply_seconds_p90"] = reply_seconds_p90
        if showings_booked is not UNSET:
            field_dict["showings_booked"] = showings_booked
        if qualification_values_set is not UNSET:
            field_dict["qualification_values_set"] = qualification_values_set
        if handoffs is not UNSET:
            field_dict["handoffs"] = handoffs
        if opt_outs is not UNSET:
            field_dict["opt_outs"] = opt_outs
        if replies_withheld is not UNSET:
            field_dict["replies_withheld"] = replies_withheld

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_opt_outs import AiOptOuts
        from ..models.ai_stats_narrowed_handoffs import AiStatsNarrowedHandoffs
        from ..models.ai_stats_narrowed_replies_withheld import (
            AiStatsNarrowedRepliesWithheld,
        )

        d = dict(src_dict)
        _from_ = d.pop("from", UNSET)
        from_: datetime.datetime | Unset
        if isinstance(_from_, Unset):
            from_ = UNSET
        else:
            from_ = datetime.datetime.fromisoformat(_from_)

        _to = d.pop("to", UNSET)
        to: datetime.datetime | Unset
        if isinstance(_to, Unset):
            to = UNSET
        else:
            to = datetime.datetime.fromisoformat(_to)

        def _parse_persona_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        persona_id = _parse_persona_id(d.pop("persona_id", UNSET))

        conversations = d.pop("conversations", UNSET)

        engaged = d.pop("engaged", UNSET)

        replies_sent = d.pop("replies_sent", UNSET)

        def _parse_reply_seconds_median(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        reply_seconds_median = _parse_reply_seconds_median(
            d.pop("reply_seconds_median", UNSET)
        )

        def _parse_reply_seconds_p90(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        reply_seconds_p90 = _parse_reply_seconds_p90(d.pop("reply_seconds_p90", UNSET))

        showings_booked = d.pop("showings_booked", UNSET)

        qualification_values_set = d.pop("qualification_values_set", UNSET)

        _handoffs = d.pop("handoffs", UNSET)
        handoffs: AiStatsNarrowedHandoffs | Unset
        if isinstance(_handoffs, Unset):
            handoffs = UNSET
        else:
            handoffs = AiStatsNarrowedHandoffs.from_dict(_handoffs)

        _opt_outs = d.pop("opt_outs", UNSET)
        opt_outs: AiOptOuts | Unset
        if isinstance(_opt_outs, Unset):
            opt_outs = UNSET
        else:
            opt_outs = AiOptOuts.from_dict(_opt_outs)

        _replies_withheld = d.pop("replies_withheld", UNSET)
        replies_withheld: AiStatsNarrowedRepliesWithheld | Unset
        if isinstance(_replies_withheld, Unset):
            replies_withheld = UNSET
        else:
            replies_withheld = AiStatsNarrowedRepliesWithheld.from_dict(
                _replies_withheld
            )

        ai_stats_narrowed = cls(
            from_=from_,
            to=to,
            persona_id=persona_id,
            conversations=conversations,
            engaged=engaged,
            replies_sent=replies_sent,
            reply_seconds_median=reply_seconds_median,
            reply_seconds_p90=reply_seconds_p90,
            showings_booked=showings_booked,
            qualification_values_set=qualification_values_set,
            handoffs=handoffs,
            opt_outs=opt_outs,
            replies_withheld=replies_withheld,
        )

        ai_stats_narrowed.additional_properties = d
        return ai_stats_narrowed

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
