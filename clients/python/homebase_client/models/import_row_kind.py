from enum import StrEnum


class ImportRowKind(StrEnum):
    REFUSED = "refused"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
