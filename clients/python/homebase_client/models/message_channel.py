from enum import StrEnum


class MessageChannel(StrEnum):
    EMAIL = "EMAIL"
    SMS = "SMS"
    WHATSAPP = "WHATSAPP"

    def __str__(self) -> str:
        return str(self.value)
