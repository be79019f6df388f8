"""One-click unsubscribe links for email (RFC 8058): the token, and the suppression it makes.

Every email carries `List-Unsubscribe: <{public_url}/unsubscribe/{token}>`. The token is
the authority, so it must name the workspace and the address without showing the address
to whoever sees the URL (a proxy's log, a forwarded mail): it is sealed (kit/sealed.py,
AES-256-GCM under a key derived from HOMEBASE_SECRET_KEY for this purpose alone) around
the workspace id, the address and the id of the email that carried it. Sealing, not a
signed reference to the message row, because the link must work for as long as the mail
exists: the message row may be scrubbed (erasure masks its address) or pruned, the token
needs neither. It never expires, and opens under HOMEBASE_SECRET_KEY_PREVIOUS too, so a
key rotation keeps the links in mailboxes working until the previous key is dropped.
"""

from dataclasses import dataclass

from homebase.db.tenancy import TenantSession
from homebase.kit.emails import is_email
from homebase.kit.keys import Keyring
from homebase.kit.sealed import SealBroken, seal, unseal
from homebase.kit.wire import JsonObject
from homebase.messaging import repository

PATH = "/unsubscribe"
REASON = "unsubscribe_link"
_PURPOSE = "list-unsubscribe"
_SEPARATOR = "\x1f"
# A sealed workspace id, 254-character address and message id is under 500 characters.
MAX_TOKEN = 1024


@dataclass(frozen=True)
class Claim:
    workspace_id: str
    address: str
    message_id: str


def token(keys: Keyring, workspace_id: str, address: str, message_id: str) -> str:
    plaintext = _SEPARATOR.join([workspace_id, address, message_id])
    return seal(keys, _PURPOSE, plaintext, bound_to=_PURPOSE)


def link(keys: Keyring, public_url: str, workspace_id: str, address: str, message_id: str) -> str:
    return f"{public_url.rstrip('/')}{PATH}/{token(keys, workspace_id, address, message_id)}"


def verify(keys: Keyring, value: str) -> Claim | None:
    """The claim of a token this service sealed (under either key), else None."""
    if len(value) > MAX_TOKEN:
        return None
    try:
        plaintext = unseal(keys, _PURPOSE, value, bound_to=_PURPOSE)
    except (SealBroken, UnicodeError):
        return None
    parts = plaintext.split(_SEPARATOR)
    if len(parts) != 3 or not is_email(parts[1]):
        return None
    return Claim(*parts)


async def suppress(session: TenantSession, claim: Claim, request: str) -> bool:
    """Suppress the claim's address for email; False when it already was (idempotent: a
    repeated POST, a mailbox provider retrying, the page's button after the header's POST).
    `request` says how it came: one_click (RFC 8058's body), page (the page's button) or
    post (any other POST)."""
    evidence: JsonObject = {
        "method": "list_unsubscribe",
        "request": request,
        "message_id": claim.message_id,
        "received_at": session.now().isoformat(),
    }
    _, made = await repository.suppress(
        session, kind="email", address=claim.address, reason=REASON, evidence=evidence
    )
    return made
