from enum import StrEnum


class WebhookNarrowedDisabledReasonType0(StrEnum):
    FAILING = "failing"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
