from enum import StrEnum


class ReceiveCallCompletedCallCompletedHandledBy(StrEnum):
    AI = "ai"
    HUMAN = "human"

    def __str__(self) -> str:
        return str(self.value)
