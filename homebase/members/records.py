"""A member as the members list reads it: the `users` table's row (models/user.py)
without its password hash, typed. The workspace is the session's."""

from datetime import datetime

from typing_extensions import TypedDict


class MemberRecord(TypedDict):
    id: str
    email: str
    name: str
    office_id: str | None
    team_id: str | None
    phone: str | None  # E.164
    created_at: datetime
    removed_at: datetime | None
