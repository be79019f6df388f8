from enum import StrEnum


class EmailSendChannel(StrEnum):
    EMAIL = "EMAIL"

    def __str__(self) -> str:
        return str(self.value)
