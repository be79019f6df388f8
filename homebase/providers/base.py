"""What every provider does: take one outbound message, say whether it was accepted.

A provider never raises for a refusal or a network failure: it answers a result with
the reason, which the worker records as the message's failure_reason.
"""

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Outbound:
    message_id: str
    channel: str  # SMS | WHATSAPP | EMAIL
    from_address: str
    to_address: str
    body: str
    subject: str | None = None
    status_callback: str | None = None


@dataclass(frozen=True)
class ProviderResult:
    accepted: bool
    provider_message_id: str | None = None
    status: str | None = None  # the provider's own word for the state, if it gave one
    error: str | None = None


class Provider(Protocol):
    name: str

    async def send(self, message: Outbound) -> ProviderResult: ...
