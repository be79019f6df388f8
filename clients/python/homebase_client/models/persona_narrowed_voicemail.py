from enum import StrEnum


class PersonaNarrowedVoicemail(StrEnum):
    HANG_UP = "hang_up"
    LEAVE = "leave"

    def __str__(self) -> str:
        return str(self.value)
