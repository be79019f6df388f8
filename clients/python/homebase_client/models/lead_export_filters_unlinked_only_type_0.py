from enum import StrEnum


class LeadExportFiltersUnlinkedOnlyType0(StrEnum):
    FALSE = "false"
    TRUE = "true"

    def __str__(self) -> str:
        return str(self.value)
