from enum import StrEnum


class CustomFieldType(StrEnum):
    BOOLEAN = "boolean"
    DATE = "date"
    MULTI_SELECT = "multi_select"
    NUMBER = "number"
    SINGLE_SELECT = "single_select"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
