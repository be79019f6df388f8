from enum import StrEnum


class TasksExportCreateObject(StrEnum):
    TASKS = "tasks"

    def __str__(self) -> str:
        return str(self.value)
