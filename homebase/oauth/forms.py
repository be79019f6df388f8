"""Reading OAuth requests: form bodies (RFC 6749 3.2) and client authentication (2.3.1).

Parameters sent without a value count as omitted, unrecognised ones are ignored, even when
repeated, and a recognised parameter sent twice is refused, as the RFC says (3.1, 3.2).
The client authenticates with form fields or with HTTP Basic, whose id and secret are
form-urlencoded before base64 (2.3.1), never both at once.

`authenticate_client` is the one client authentication of every OAuth endpoint (token,
revoke): each failure (invalid_client) counts against the client address's unauthenticated
budget there, so no caller can check a secret without the budget.
"""

import base64
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote_plus

from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import Request

from homebase.http.unauthenticated import count_failure
from homebase.kit.nul import names_holding_nul
from homebase.oauth.errors import OAuthError, invalid_client, invalid_request
from homebase.oauth.service import get_client, secret_matches
from homebase.runtime import get_runtime

FORM_TYPE = "application/x-www-form-urlencoded"
MAX_BODY_BYTES = 16_384


def parse_form(body: bytes, known: Collection[str]) -> dict[str, str]:
    """The `known` parameters of the body. RFC 6749 3.1: "The authorization server MUST
    ignore unrecognized request parameters. ... Request and response parameters MUST NOT
    be included more than once": an unknown one, repeated or not, is dropped unread."""
    try:
        text = body.decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError) as error:
        raise invalid_request("The body is not valid form-urlencoded UTF-8.") from error
    pairs = [(name, value) for name, value in pairs if name in known]
    seen: dict[str, int] = {}
    for name, _ in pairs:
        seen[name] = seen.get(name, 0) + 1
    twice = sorted(name for name, count in seen.items() if count > 1)
    if twice:
        raise invalid_request(f"Parameters must not be repeated: {', '.join(twice)}.")
    holding_nul = names_holding_nul(pairs)
    if holding_nul:  # kit/nul.py
        raise invalid_request(f"Parameters must not contain U+0000: {', '.join(holding_nul)}.")
    return {name: value for name, value in pairs if value != ""}


async def read_form(request: Request, known: Collection[str]) -> dict[str, str]:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != FORM_TYPE:
        raise invalid_request(f"The body must be sent as {FORM_TYPE}.")
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise invalid_request("The body is too large.")
    return parse_form(body, known)


def require(form: dict[str, str], *names: str) -> None:
    missing = [name for name in names if name not in form]
    if missing:
        raise invalid_request(f"Missing parameter(s): {', '.join(missing)}.")


@dataclass(frozen=True)
class ClientAuth:
    client_id: str | None
    secret: str | None
    used_basic: bool


def client_auth(request: Request, form: dict[str, str]) -> ClientAuth:
    header = request.headers.get("authorization")
    if not header:
        return ClientAuth(form.get("client_id"), form.get("client_secret"), used_basic=False)
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "basic":
        raise invalid_client(
            "Only HTTP Basic is accepted in the Authorization header.", used_basic=True
        )
    if "client_secret" in form:
        raise invalid_request(
            "Authenticate the client one way only: HTTP Basic or the "
            "client_id and client_secret form fields, not both."
        )
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except ValueError:  # binascii.Error, UnicodeDecodeError, and non-ASCII header text
        raise invalid_client("Malformed HTTP Basic credentials.", used_basic=True) from None
    raw_id, colon, raw_secret = decoded.partition(":")
    if not colon:
        raise invalid_client("Malformed HTTP Basic credentials.", used_basic=True)
    client_id, secret = unquote_plus(raw_id), unquote_plus(raw_secret)
    if names_holding_nul([("client_id", client_id), ("client_secret", secret)]):
        raise invalid_client("Malformed HTTP Basic credentials.", used_basic=True)
    if "client_id" in form and form["client_id"] != client_id:
        raise invalid_request("client_id differs from the HTTP Basic client.")
    return ClientAuth(client_id, secret, used_basic=True)


async def authenticate_client(
    request: Request, form: dict[str, str], *, required: bool
) -> dict[str, Any]:
    """The client the request authenticates as. `required`: it must prove its secret;
    otherwise a secret is optional, but a wrong one is still refused.

    A failure is counted against the client address's unauthenticated budget
    (http/unauthenticated.py) and, past it, answered 429 rate_limited in RFC 6749's shape
    (docs/decisions.md). The app is read in its own short read transaction, so the count,
    a limiter call that may go to Redis, never runs inside the endpoint's write
    transaction (on SQLite, every writer of the process would wait for it)."""
    try:
        auth = client_auth(request, form)
        async with get_runtime(request).db.transaction(write=False) as connection:
            return await _verify_client(connection, auth, required=required)
    except OAuthError as error:
        if error.error != "invalid_client":
            raise
        raise await _counted(request, error) from None


async def optional_client(request: Request, form: dict[str, str]) -> dict[str, Any] | None:
    """/oauth/revoke: a request naming no client (no client_id, no Authorization header)
    authenticates none; one that names a client goes through authenticate_client."""
    if "client_id" not in form and not request.headers.get("authorization"):
        return None
    return await authenticate_client(request, form, required=False)


async def _counted(request: Request, error: OAuthError) -> OAuthError:
    decision = await count_failure(request)
    if decision.allowed:
        return error
    return OAuthError(
        "rate_limited",
        "Too many failed client authentications from this address (limit "
        f"{decision.limit} per minute); retry in {decision.retry_after} s.",
        status=429,
        headers={"Retry-After": str(decision.retry_after)},
    )


async def _verify_client(
    connection: AsyncConnection, auth: ClientAuth, *, required: bool
) -> dict[str, Any]:
    if not auth.client_id:
        if required or auth.used_basic:
            raise invalid_client("Client authentication is required.", used_basic=auth.used_basic)
        raise invalid_request("Missing parameter(s): client_id.")
    client = await get_client(connection, auth.client_id)
    if client is None:
        raise invalid_client("Unknown client.", used_basic=auth.used_basic)
    if auth.secret is None:
        if required:
            raise invalid_client(
                "Client authentication is required for this grant type.", used_basic=auth.used_basic
            )
        return client
    if not secret_matches(client, auth.secret):
        raise invalid_client("Client authentication failed.", used_basic=auth.used_basic)
    return client
