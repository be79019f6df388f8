from enum import StrEnum


class AppointmentOutcome(StrEnum):
    CANCELLED = "cancelled"
    NO_SHOW = "no_show"
    SHOWED = "showed"

    def __str__(self) -> str:
        return str(self.value)
