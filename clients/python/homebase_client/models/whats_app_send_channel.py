from enum import StrEnum


class WhatsAppSendChannel(StrEnum):
    WHATSAPP = "WHATSAPP"

    def __str__(self) -> str:
        return str(self.value)
