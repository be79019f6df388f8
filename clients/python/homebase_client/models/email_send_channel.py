from enum import StrEnum


class EmailSendChannel(StrEnum):
    EMAIL = "EMAIL"
    EMAIL_LOWERCASE = "email"

    def __str__(self) -> str:
        return str(self.value)
