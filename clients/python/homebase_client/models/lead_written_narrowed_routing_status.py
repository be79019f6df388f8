from enum import StrEnum


class LeadWrittenNarrowedRoutingStatus(StrEnum):
    ASSIGNED = "assigned"
    SKIPPED = "skipped"
    UNASSIGNED = "unassigned"

    def __str__(self) -> str:
        return str(self.value)
