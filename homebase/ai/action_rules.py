"""The rules code enforces on what the AI does (docs/ai.md, "Actions"): pure, no I/O.

- `unverified_claim(reply, done)`: a reply that says a showing is booked, moved,
  cancelled or confirmed goes out only with the matching action performed with it (or
  found already done); otherwise the claim it makes, and the lead is handed off.
- `stage_refusal(current, wanted)`: the AI sets only HOT_LEAD or NURTURE, only from
  LEAD, HOT_LEAD or NURTURE, and never demotes (HOT_LEAD to NURTURE).
- `promotion(stage, booked, qualification)`: LEAD or NURTURE becomes HOT_LEAD when a
  showing is booked, or when `pre_approved` is true and `timeline` is 0-3 months.
- `stops_soliciting(qualification)`: `working_with_agent` true hands the lead to a
  person (NAR Code of Ethics, article 16: no soliciting another agent's client).
"""

import re
from collections.abc import Collection, Mapping
from typing import Any

from homebase.ai import tools

# Past-tense words of a done thing, by the tools that make them true.
_CLAIMS: tuple[tuple[str, re.Pattern[str], frozenset[str]], ...] = (
    (
        "cancelled",
        re.compile(r"\b(cancell?ed|called off)\b", re.IGNORECASE),
        frozenset({tools.CANCEL}),
    ),
    (
        "moved",
        re.compile(r"\b(rescheduled|moved)\b", re.IGNORECASE),
        frozenset({tools.RESCHEDULE}),
    ),
    (
        "booked",
        re.compile(
            r"\b(booked|scheduled|confirmed|reserved|locked in|all set|set up for|"
            r"on the calendar|see you (on|at|then))\b",
            re.IGNORECASE,
        ),
        frozenset({tools.BOOK, tools.RESCHEDULE}),
    ),
)
AI_STAGES = frozenset({"HOT_LEAD", "NURTURE"})
FROM_STAGES = frozenset({"LEAD", "HOT_LEAD", "NURTURE"})
PROMOTED_FROM = frozenset({"LEAD", "NURTURE"})
SOON = "0-3 months"


def unverified_claim(reply: str, done: Collection[str]) -> str | None:
    """The first claim of `reply` (booked, moved, cancelled) that none of the tools in
    `done` (performed or found already done with this reply) makes true, or None."""
    for claim, pattern, proving in _CLAIMS:
        if pattern.search(reply) and not proving.intersection(done):
            return claim
    return None


def stage_refusal(current: str, wanted: str) -> str | None:
    if wanted not in AI_STAGES:
        return "the assistant may set only HOT_LEAD or NURTURE"
    if current not in FROM_STAGES:
        return f"the contact is {current}: the assistant changes only LEAD, HOT_LEAD or NURTURE"
    if current == "HOT_LEAD" and wanted == "NURTURE":
        return "the contact is HOT_LEAD: the assistant never demotes a contact"
    return None


def promotion(stage: str, *, booked: bool, qualification: Mapping[str, Any]) -> str | None:
    """HOT_LEAD when the rules promote the contact, else None."""
    if stage not in PROMOTED_FROM:
        return None
    ready = qualification.get("pre_approved") is True and qualification.get("timeline") == SOON
    return "HOT_LEAD" if booked or ready else None


def stops_soliciting(qualification: Mapping[str, Any]) -> bool:
    return qualification.get("working_with_agent") is True
