from enum import StrEnum


class EnrolmentStatus(StrEnum):
    ACTIVE = "active"
    COMPLETED = "completed"
    FAILED = "failed"
    STOPPED = "stopped"

    def __str__(self) -> str:
        return str(self.value)
