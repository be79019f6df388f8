from enum import StrEnum


class LeadsExportCreateObject(StrEnum):
    LEADS = "leads"

    def __str__(self) -> str:
        return str(self.value)
