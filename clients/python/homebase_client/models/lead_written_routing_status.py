from enum import StrEnum


class LeadWrittenRoutingStatus(StrEnum):
    ASSIGNED = "assigned"
    SKIPPED = "skipped"
    UNASSIGNED = "unassigned"

    def __str__(self) -> str:
        return str(self.value)
