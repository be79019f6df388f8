from enum import StrEnum


class MessageStatus(StrEnum):
    DELIVERED = "DELIVERED"
    FAILED = "FAILED"
    QUEUED = "QUEUED"
    RECEIVED = "RECEIVED"
    SENDING = "SENDING"
    SENT = "SENT"

    def __str__(self) -> str:
        return str(self.value)
