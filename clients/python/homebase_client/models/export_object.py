from enum import StrEnum


class ExportObject(StrEnum):
    APPOINTMENTS = "appointments"
    CONTACTS = "contacts"
    DEALS = "deals"
    LEADS = "leads"
    MESSAGES = "messages"
    TASKS = "tasks"

    def __str__(self) -> str:
        return str(self.value)
