"""ORM models, one file per table, so domains can import each other's tables freely."""

from homebase.models.api_key import ApiKey
from homebase.models.base import Base
from homebase.models.contact import Contact
from homebase.models.outbox_event import OutboxEvent
from homebase.models.sender_number import SenderNumber
from homebase.models.timeline_event import TimelineEvent
from homebase.models.user import User
from homebase.models.workspace import Workspace

__all__ = ["ApiKey", "Base", "Contact", "OutboxEvent", "SenderNumber", "TimelineEvent", "User",
           "Workspace"]
