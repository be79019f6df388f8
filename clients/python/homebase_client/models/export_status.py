from enum import StrEnum


class ExportStatus(StrEnum):
    COMPLETED = "completed"
    EXPIRED = "expired"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
