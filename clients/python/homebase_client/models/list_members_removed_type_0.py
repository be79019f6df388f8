from enum import StrEnum


class ListMembersRemovedType0(StrEnum):
    FALSE = "false"
    TRUE = "true"

    def __str__(self) -> str:
        return str(self.value)
