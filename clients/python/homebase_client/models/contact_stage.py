from enum import StrEnum


class ContactStage(StrEnum):
    ACTIVE_CLIENT = "ACTIVE_CLIENT"
    HOT_LEAD = "HOT_LEAD"
    LEAD = "LEAD"
    NURTURE = "NURTURE"
    PAST_CLIENT = "PAST_CLIENT"
    SPHERE = "SPHERE"
    TRASH = "TRASH"

    def __str__(self) -> str:
        return str(self.value)
