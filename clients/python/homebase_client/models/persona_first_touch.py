from enum import StrEnum


class PersonaFirstTouch(StrEnum):
    CALL = "call"
    OFF = "off"
    TEXT = "text"
    TEXT_THEN_CALL = "text_then_call"

    def __str__(self) -> str:
        return str(self.value)
