"""What reaching an enrolled contact came to (automations/reach.py): the first-touch
path's answer to the campaign job."""

from dataclasses import dataclass
from datetime import datetime

from homebase.automations.campaign_schemas import CampaignSkipReason


@dataclass(frozen=True)
class Reached:
    reference: str | None = None  # what the path queued (the AI text's ai_outreach id)


@dataclass(frozen=True)
class Deferred:
    until: datetime  # not before this (the contact has an AI text under way)


@dataclass(frozen=True)
class Refused:
    reason: CampaignSkipReason  # refused: the path will not reach the contact


ReachOutcome = Reached | Deferred | Refused
