from enum import StrEnum


class MessagesExportCreateObject(StrEnum):
    MESSAGES = "messages"

    def __str__(self) -> str:
        return str(self.value)
