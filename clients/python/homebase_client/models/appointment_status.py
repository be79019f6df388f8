from enum import StrEnum


class AppointmentStatus(StrEnum):
    CANCELLED = "cancelled"
    DONE = "done"
    SCHEDULED = "scheduled"

    def __str__(self) -> str:
        return str(self.value)
