from enum import StrEnum


class TaskStatus(StrEnum):
    CANCELLED = "cancelled"
    DONE = "done"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
