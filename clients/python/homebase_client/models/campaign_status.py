from enum import StrEnum


class CampaignStatus(StrEnum):
    ACTIVE = "active"
    COMPLETED = "completed"
    DRAFT = "draft"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
