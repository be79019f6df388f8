from enum import StrEnum


class CampaignChannel(StrEnum):
    CALL = "call"
    TEXT = "text"
    TEXT_THEN_CALL = "text_then_call"

    def __str__(self) -> str:
        return str(self.value)
