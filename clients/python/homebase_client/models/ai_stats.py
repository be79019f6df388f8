from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ai_opt_outs import AiOptOuts
    from ..models.ai_stats_handoffs import AiStatsHandoffs
    from ..models.ai_stats_replies_withheld import AiStatsRepliesWithheld


T = TypeVar("T", bound="AiStats")


@_attrs_define
class AiStats:
    """
    Attributes:
        from_ (datetime.datetime): Start of the range, inclusive.
        to (datetime.datetime): End of the range, exclusive.
        persona_id (None | str): The persona the numbers are limited to, or null for every one.
        conversations (int): Contacts with an inbound text (SMS or WhatsApp) in the range; with persona_id, those of
            them whose texts an AI job of the persona took.
        engaged (int): Of the conversations, the contacts an AI reply reached in the range.
        replies_sent (int): AI replies to the conversations that the provider took in the range (a handoff's holding
            text and refused sends are not replies).
        reply_seconds_median (float | None): Median seconds from the lead's latest text before a reply to the provider
            taking that reply (nearest rank); null without replies.
        reply_seconds_p90 (float | None): 90th percentile of the same (nearest rank); null without replies.
        showings_booked (int): Showings the AI booked (book_showing performed) in the range.
        qualification_values_set (int): Contact fields set_qualification wrote in the range, one per value.
        handoffs (AiStatsHandoffs): Handoffs in the range by reason; a reason with none is left out.
        opt_outs (AiOptOuts):
        replies_withheld (AiStatsRepliesWithheld): Replies the model composed that code kept back in the range, by rule:
            too_long, email, link, phone (a reply_rule handoff), unverified_commitment, working_with_agent; a rule with none
            is left out.
    """

    from_: datetime.datetime
    to: datetime.datetime
    persona_id: None | str
    conversations: int
    engaged: int
    replies_sent: int
    reply_seconds_median: float | None
    reply_seconds_p90: float | None
    showings_booked: int
    qualification_values_set: int
    handoffs: AiStatsHandoffs
    opt_outs: AiOptOuts
    replies_withheld: AiStatsRepliesWithheld
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        persona_id: None | str
        persona_id = self.persona_id

        conversations = self.conversations

        engaged = self.engaged

        replies_sent = self.replies_sent

        reply_seconds_median: float | None
        reply_seconds_median = self.reply_seconds_median

        reply_seconds_p90: float | None
        reply_seconds_p90 = self.reply_seconds_p90

        showings_booked = self.showings_booked

        qualification_values_set = self.qualification_values_set

        handoffs = self.handoffs.to_dict()

        opt_outs = self.opt_outs.to_dict()

        replies_withheld = self.replies_withheld.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "to": to,
                "persona_id": persona_id,
                "conversations": conversations,
                "engaged": engaged,
                "replies_sent": replies_sent,
                "reply_seconds_median": reply_seconds_median,
                "reply_seconds_p90": reply_seconds_p90,
                "showings_booked": showings_booked,
                "qualification_values_set": qualification_values_set,
                "handoffs": handoffs,
                "opt_outs": opt_outs,
                "replies_withheld": replies_withheld,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_opt_outs import AiOptOuts
        from ..models.ai_stats_handoffs import AiStatsHandoffs
        from ..models.ai_stats_replies_withheld import AiStatsRepliesWithheld

        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        to = datetime.datetime.fromisoformat(d.pop("to"))

        def _parse_persona_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        persona_id = _parse_persona_id(d.pop("persona_id"))

        conversations = d.pop("conversations")

        engaged = d.pop("engaged")

        replies_sent = d.pop("replies_sent")

        def _parse_reply_seconds_median(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        reply_seconds_median = _parse_reply_seconds_median(
            d.pop("reply_seconds_median")
        )

        def _parse_reply_seconds_p90(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        reply_seconds_p90 = _parse_reply_seconds_p90(d.pop("reply_seconds_p90"))

        showings_booked = d.pop("showings_booked")

        qualification_values_set = d.pop("qualification_values_set")

        handoffs = AiStatsHandoffs.from_dict(d.pop("handoffs"))

        opt_outs = AiOptOuts.from_dict(d.pop("opt_outs"))

        replies_withheld = AiStatsRepliesWithheld.from_dict(d.pop("replies_withheld"))

        ai_stats = cls(
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

        ai_stats.additional_properties = d
        return ai_stats

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
