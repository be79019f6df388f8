from enum import StrEnum


class CustomFieldObject(StrEnum):
    CONTACTS = "contacts"
    DEALS = "deals"

    def __str__(self) -> str:
        return str(self.value)
