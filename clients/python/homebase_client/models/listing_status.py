from enum import StrEnum


class ListingStatus(StrEnum):
    ACTIVE = "active"
    COMING_SOON = "coming_soon"
    PENDING = "pending"
    SOLD = "sold"
    WITHDRAWN = "withdrawn"

    def __str__(self) -> str:
        return str(self.value)
