"""The AI responder's numbers on the wire: GET /v1/ai/stats (docs/ai.md, "Its numbers")."""

from typing import Annotated

from pydantic import ConfigDict, Field, with_config
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.kit.wire import WireTime


class AiOptOuts(TypedDict):
    keyword: Annotated[
        int,
        Field(
            description="Opt-outs the opt-out rule read in a text (a keyword or a sentence; "
            "docs/messaging.md), before any AI."
        ),
    ]
    model: Annotated[
        int,
        Field(description="Opt-outs the model read (its answer's opt_out, or its opt_out tool)."),
    ]


_EXAMPLE: JsonDict = {
    "from": "2026-10-21T00:00:00.000Z",
    "to": "2026-11-20T00:00:00.000Z",
    "persona_id": None,
    "conversations": 140,
    "engaged": 112,
    "replies_sent": 301,
    "reply_seconds_median": 6.412,
    "reply_seconds_p90": 19.87,
    "showings_booked": 23,
    "qualification_values_set": 188,
    "handoffs": {"asked_for_person": 9, "lending": 4, "reply_rule": 2, "no_calls": 1},
    "opt_outs": {"keyword": 5, "model": 2},
    "replies_withheld": {"link": 1, "phone": 1},
}

AiStats = TypedDict(
    "AiStats",
    {
        "from": Annotated[WireTime, Field(description="Start of the range, inclusive.")],
        "to": Annotated[WireTime, Field(description="End of the range, exclusive.")],
        "persona_id": Annotated[
            str | None,
            Field(description="The persona the numbers are limited to, or null for every one."),
        ],
        "conversations": Annotated[
            int,
            Field(
                description="Contacts with an inbound text (SMS or WhatsApp) in the range; "
                "with persona_id, those of them whose texts an AI job of the persona took."
            ),
        ],
        "engaged": Annotated[
            int,
            Field(
                description="Of the conversations, the contacts an AI reply reached in the range."
            ),
        ],
        "replies_sent": Annotated[
            int,
            Field(
                description="AI replies to the conversations that the provider took in the "
                "range (a handoff's holding text and refused sends are not replies)."
            ),
        ],
        "reply_seconds_median": Annotated[
            float | None,
            Field(
                description="Median seconds from the lead's latest text before a reply to the "
                "provider taking that reply (nearest rank); null without replies."
            ),
        ],
        "reply_seconds_p90": Annotated[
            float | None,
            Field(description="90th percentile of the same (nearest rank); null without replies."),
        ],
        "showings_booked": Annotated[
            int, Field(description="Showings the AI booked (book_showing performed) in the range.")
        ],
        "qualification_values_set": Annotated[
            int,
            Field(
                description="Contact fields set_qualification wrote in the range, one per value."
            ),
        ],
        "handoffs": Annotated[
            dict[str, int],
            Field(description="Handoffs in the range by reason; a reason with none is left out."),
        ],
        "opt_outs": Annotated[AiOptOuts, Field(description="Opt-outs by text in the range.")],
        "replies_withheld": Annotated[
            dict[str, int],
            Field(
                description="Replies the model composed that code kept back in the range, by "
                "rule: too_long, email, link, phone (a reply_rule handoff), "
                "unverified_commitment, working_with_agent; a rule with none is left out."
            ),
        ],
    },
)
with_config(ConfigDict(json_schema_extra={"examples": [_EXAMPLE]}))(AiStats)
