from enum import StrEnum


class CampaignContactState(StrEnum):
    BOOKED = "booked"
    OPTED_OUT = "opted_out"
    PENDING = "pending"
    REACHED = "reached"
    REPLIED = "replied"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return str(self.value)
