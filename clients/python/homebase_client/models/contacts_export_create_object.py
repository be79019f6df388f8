from enum import StrEnum


class ContactsExportCreateObject(StrEnum):
    CONTACTS = "contacts"

    def __str__(self) -> str:
        return str(self.value)
