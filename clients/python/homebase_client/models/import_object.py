from enum import StrEnum


class ImportObject(StrEnum):
    CONTACTS = "contacts"
    LEADS = "leads"

    def __str__(self) -> str:
        return str(self.value)
