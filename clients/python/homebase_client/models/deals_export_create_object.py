from enum import StrEnum


class DealsExportCreateObject(StrEnum):
    DEALS = "deals"

    def __str__(self) -> str:
        return str(self.value)
