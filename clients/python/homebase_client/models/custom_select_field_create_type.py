from enum import StrEnum


class CustomSelectFieldCreateType(StrEnum):
    MULTI_SELECT = "multi_select"
    SINGLE_SELECT = "single_select"

    def __str__(self) -> str:
        return str(self.value)
