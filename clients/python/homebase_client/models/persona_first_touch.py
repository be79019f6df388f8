from enum import StrEnum


class PersonaFirstTouch(StrEnum):
    OFF = "off"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
