from enum import StrEnum


class WebhookCreatedNarrowedStatus(StrEnum):
    ACTIVE = "active"
    DISABLED = "disabled"

    def __str__(self) -> str:
        return str(self.value)
