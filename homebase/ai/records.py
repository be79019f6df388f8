"""Typed rows of the AI's acting (AGENTS.md, "Typed rows and wire types"): the action log's
record, and the partial reads of listings and appointments a tool is checked against."""

from datetime import datetime

from typing_extensions import TypedDict


class ActionRecord(TypedDict):
    """A row of `ai_actions` (models/ai_action.py): ids and outcomes only."""

    id: str
    ai_job_id: str
    contact_id: str
    tool: str
    outcome: str
    object_id: str | None
    created_at: datetime


class ListingFactsRow(TypedDict):
    """What the AI reads of a listing: to show it, and to book a showing of it."""

    id: str
    address: str
    city: str
    status: str
    price_cents: int | None
    beds: int | None
    baths: float | None
    url: str | None


class ShowingRow(TypedDict):
    """What the AI reads of an appointment: to list it, move it or cancel it."""

    id: str
    contact_id: str
    title: str
    starts_at: datetime
    ends_at: datetime
    outcome: str | None
