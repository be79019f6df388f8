from enum import StrEnum


class WebhookCreatedDisabledReasonType0(StrEnum):
    FAILING = "failing"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
