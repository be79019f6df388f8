from enum import StrEnum


class ListLeadsUnlinkedOnlyType0(StrEnum):
    FALSE = "false"
    TRUE = "true"

    def __str__(self) -> str:
        return str(self.value)
