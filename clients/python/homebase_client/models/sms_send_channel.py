from enum import StrEnum


class SmsSendChannel(StrEnum):
    SMS = "SMS"

    def __str__(self) -> str:
        return str(self.value)
