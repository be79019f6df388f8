from enum import StrEnum


class ContactAiPauseReason(StrEnum):
    DAILY_LIMIT = "daily_limit"
    HANDOFF = "handoff"
    HUMAN_MESSAGE = "human_message"
    MANUAL = "manual"
    NOTE = "note"
    OPT_OUT = "opt_out"

    def __str__(self) -> str:
        return str(self.value)
