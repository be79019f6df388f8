from enum import StrEnum


class AppointmentsExportCreateObject(StrEnum):
    APPOINTMENTS = "appointments"

    def __str__(self) -> str:
        return str(self.value)
