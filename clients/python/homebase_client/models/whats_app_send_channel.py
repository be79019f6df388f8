from enum import StrEnum


class WhatsAppSendChannel(StrEnum):
    WHATSAPP = "WHATSAPP"
    WHATSAPP_LOWERCASE = "whatsapp"

    def __str__(self) -> str:
        return str(self.value)
