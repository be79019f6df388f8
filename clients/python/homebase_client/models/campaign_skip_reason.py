from enum import StrEnum


class CampaignSkipReason(StrEnum):
    AI_PAUSED = "ai_paused"
    ATTEMPT_LIMIT = "attempt_limit"
    CAMPAIGN_ENDED = "campaign_ended"
    DNC_REGISTRY = "dnc_registry"
    ERASED = "erased"
    NO_CONSENT = "no_consent"
    NO_PHONE = "no_phone"
    RECENT_CONVERSATION = "recent_conversation"
    REFUSED = "refused"
    SUPPRESSED = "suppressed"

    def __str__(self) -> str:
        return str(self.value)
