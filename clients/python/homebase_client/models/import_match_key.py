from enum import StrEnum


class ImportMatchKey(StrEnum):
    EMAIL = "email"
    NAME = "name"
    PHONE = "phone"

    def __str__(self) -> str:
        return str(self.value)
