"""What every provider does: take one outbound message, say whether it was accepted.

A provider never raises for a refusal or a network failure: it answers a result with
the reason, which the worker records as the message's failure_reason. A result that is
not accepted also says how far the send got (`failure`), because sends are at most once:
NOT_SENT (the provider was never reached) may be tried again, UNKNOWN (the call broke off
after the message may have left) never is.

`unsendable` is checked by every provider before anything leaves the process, so a row
stored before the request rules existed (a subject with a line break, a `to` the mail
library would read as another mailbox) is refused alone instead of breaking its batch.
"""

import re
from dataclasses import dataclass
from typing import Protocol

from homebase.kit.emails import header_safe, is_email

NOT_SENT = "not_sent"
UNKNOWN = "unknown"
_E164 = re.compile(r"\+[1-9][0-9]{1,14}")
# Inside List-Unsubscribe's angle brackets: printable ASCII without space, < or >, short
# enough that the header stays one line under SMTP's 998-character limit.
_LINK = re.compile(r"https?://[!-;=?-~]{1,900}")


@dataclass(frozen=True)
class Outbound:
    message_id: str
    channel: str  # SMS | WHATSAPP | EMAIL
    from_address: str
    to_address: str
    body: str
    subject: str | None = None
    status_callback: str | None = None
    # Email: the one-click unsubscribe link (RFC 8058), sent as List-Unsubscribe.
    unsubscribe_url: str | None = None


@dataclass(frozen=True)
class ProviderResult:
    accepted: bool
    provider_message_id: str | None = None
    status: str | None = None  # the provider's own word for the state, if it gave one
    error: str | None = None
    failure: str | None = None  # NOT_SENT, UNKNOWN, or None: the provider refused it


class Provider(Protocol):
    name: str

    async def send(self, message: Outbound) -> ProviderResult: ...


def unsendable(message: Outbound) -> ProviderResult | None:
    """A refusal when a value that becomes a header or an address is not safe as one."""
    problems = []
    if message.channel == "EMAIL":
        for field, value in (("to", message.to_address), ("from", message.from_address)):
            if not isinstance(value, str) or not is_email(value):
                problems.append(f"{field} is not one bare email address")
        if message.subject is not None and not header_safe(message.subject):
            problems.append("subject holds a line break or control character")
        if message.unsubscribe_url is not None and not _LINK.fullmatch(message.unsubscribe_url):
            problems.append("the unsubscribe link is not one http(s) URL of printable ASCII")
    else:
        for field, value in (("to", message.to_address), ("from", message.from_address)):
            if not isinstance(value, str) or not _E164.fullmatch(value):
                problems.append(f"{field} is not an E.164 phone number")
    if not problems:
        return None
    return ProviderResult(accepted=False, error="; ".join(problems))
