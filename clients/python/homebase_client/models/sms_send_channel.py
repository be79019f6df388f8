from enum import StrEnum


class SmsSendChannel(StrEnum):
    SMS = "SMS"
    SMS_LOWERCASE = "sms"

    def __str__(self) -> str:
        return str(self.value)
