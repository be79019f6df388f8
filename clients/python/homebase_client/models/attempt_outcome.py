from enum import StrEnum


class AttemptOutcome(StrEnum):
    ABANDONED = "abandoned"
    FAILED = "failed"
    IN_PROGRESS = "in_progress"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
