"""Idempotency-Key on every POST under /v1: the claim, the stored answer, its replay.

The /v1 route class (http/v1_route.py) drives it; docs/decisions.md "Idempotency keys"
gives the rules. In short:

- A key belongs to one credential in one workspace: the row's primary key is
  (workspace, credential kind, credential id, sha256 of the key). Another credential
  sending the same key runs anew, so a replay never shows an answer (unmasked phone
  numbers, say) to a credential that could not have seen it.
- `claim` runs in a short transaction of its own that commits before the request's work
  starts: one atomic upsert that inserts the row in_flight with a lease, or takes over a
  row whose TTL has passed or whose holder's lease ran out (a SIGKILLed request). The
  unique key is what keeps two instances from both running the request.
- `complete` runs inside the request's own transaction: the work and its stored answer
  commit together or not at all. It only succeeds while this request still owns the row;
  a request whose lease was taken over rolls its work back (409), so the work is done
  once even when a lease runs out under a slow request.
- `release` (a separate transaction) deletes the claim of a request whose transaction
  rolled back: nothing happened, so the same key may run again.
"""

import hashlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

import orjson
from sqlalchemy import BindParameter, and_, bindparam, delete, or_, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.principal import Principal
from homebase.config import Settings
from homebase.db.engine import Database
from homebase.db.tenancy import TenantSession
from homebase.idempotency.errors import IdempotencyKeyInUse, IdempotencyKeyReused
from homebase.kit.errors import ValidationFailed
from homebase.kit.sealed import seal, unseal
from homebase.models import IdempotencyKey

log = logging.getLogger("homebase.idempotency")

HEADER = "idempotency-key"
HEADER_NAME = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
IN_FLIGHT, COMPLETED = "in_flight", "completed"
_PURPOSE = "idempotency-response"
_CONTACT_ID = re.compile(rb"\bcon_[0-9a-z]{26}\b")

keys = IdempotencyKey.__table__
_PRIMARY_KEY = (keys.c.workspace_id, keys.c.credential_kind, keys.c.credential_id, keys.c.key_hash)


@dataclass(slots=True)
class Claim:
    """This request's hold on its key; `committed` once its transaction committed with
    the stored answer (then there is nothing to release)."""

    workspace_id: str
    credential_kind: str
    credential_id: str
    key_hash: str
    owner: str
    omit: tuple[str, ...]
    committed: bool = False

    def params(self) -> dict[str, Any]:
        """The row's primary key and owner, for the statements below."""
        return {
            "p_workspace": self.workspace_id,
            "p_kind": self.credential_kind,
            "p_credential": self.credential_id,
            "p_key": self.key_hash,
            "p_owner": self.owner,
        }

    @property
    def bound_to(self) -> str:
        # Sealed bodies are bound to their row: one copied onto another row won't open.
        return f"{self.workspace_id}/{self.credential_kind}/{self.credential_id}/{self.key_hash}"


OMIT_ATTRIBUTE = "homebase_not_replayed"


Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


def not_replayed(*members: str) -> Callable[[Endpoint], Endpoint]:
    """Top-level members of an endpoint's answer that are never stored, so never replayed
    (a webhook's signing secret, shown once). Put it under the route decorator."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, OMIT_ATTRIBUTE, members)
        return endpoint

    return mark


# Statements are built once, with bindparams: building the upsert per request (its
# `excluded` alias above all) cost more than running it.
_ROW = and_(
    keys.c.workspace_id == bindparam("p_workspace"),
    keys.c.credential_kind == bindparam("p_kind"),
    keys.c.credential_id == bindparam("p_credential"),
    keys.c.key_hash == bindparam("p_key"),
)
_OWNED = and_(_ROW, keys.c.owner == bindparam("p_owner"), keys.c.status == IN_FLIGHT)
_READ = select(
    keys.c.fingerprint, keys.c.status, keys.c.response_status, keys.c.response_body
).where(_ROW)
_COMPLETE = (
    update(keys)
    .where(_OWNED)
    .values(
        status=COMPLETED,
        response_status=bindparam("p_status"),
        response_body=bindparam("p_body"),
        contact_ids=bindparam("p_contacts"),
        lease_expires_at=bindparam("p_now"),
        expires_at=bindparam("p_expires"),
    )
)
_RELEASE = delete(keys).where(_OWNED)


def _claim_statement(insert: Any) -> Any:
    statement = insert(keys).values(
        workspace_id=bindparam("p_workspace"),
        credential_kind=bindparam("p_kind"),
        credential_id=bindparam("p_credential"),
        key_hash=bindparam("p_key"),
        fingerprint=bindparam("p_fingerprint"),
        owner=bindparam("p_owner"),
        status=IN_FLIGHT,
        lease_expires_at=bindparam("p_lease"),
        expires_at=bindparam("p_expires"),
        created_at=bindparam("p_now"),
    )
    fresh = statement.excluded
    now: BindParameter[datetime] = bindparam("p_now")
    return statement.on_conflict_do_update(
        index_elements=list(_PRIMARY_KEY),
        set_={
            "fingerprint": fresh.fingerprint,
            "owner": fresh.owner,
            "status": IN_FLIGHT,
            "lease_expires_at": fresh.lease_expires_at,
            "expires_at": fresh.expires_at,
            "created_at": fresh.created_at,
            "response_status": None,
            "response_body": None,
            "contact_ids": None,
        },
        # An expired key is new again; an abandoned run of the same request is taken over.
        where=or_(
            keys.c.expires_at <= now,
            and_(
                keys.c.status == IN_FLIGHT,
                keys.c.lease_expires_at <= now,
                keys.c.fingerprint == fresh.fingerprint,
            ),
        ),
    ).returning(keys.c.owner)


_CLAIM = {
    "postgresql": _claim_statement(postgresql_insert),
    "sqlite": _claim_statement(sqlite_insert),
}


async def _execute(
    connection: AsyncConnection, statement: Any, params: dict[str, Any]
) -> tuple[list[dict[str, Any]], int]:
    """Rows and rowcount."""
    result = await connection.execute(statement, params)
    rows = [dict(row) for row in result.mappings()] if result.returns_rows else []
    return rows, result.rowcount


def check_key(key: str) -> None:
    if not 1 <= len(key) <= MAX_KEY_LENGTH:
        raise ValidationFailed.for_field(
            HEADER_NAME,
            f"must be 1 to {MAX_KEY_LENGTH} characters",
            location="header",
            type="string_too_short" if not key else "string_too_long",
        )


def fingerprint(method: str, path: str, query: bytes, body: bytes) -> str:
    """What makes two requests the same: method, path with its query, body bytes."""
    digest = hashlib.sha256(method.encode())
    digest.update(b"\n" + path.encode() + b"?" + query)
    digest.update(b"\n" + hashlib.sha256(body).digest())
    return digest.hexdigest()


async def claim(
    connection: AsyncConnection,
    request: Request,
    principal: Principal,
    key: str,
    *,
    now: datetime,
    settings: Settings,
    omit: tuple[str, ...] = (),
) -> Claim | Response:
    """This request's claim on `key`, or the answer instead of running it: the stored
    response (a replay), 422 for another request under the key, 409 while it runs."""
    check_key(key)
    held = Claim(
        principal.workspace_id,
        principal.credential_kind,
        principal.credential_id,
        hashlib.sha256(key.encode()).hexdigest(),
        request.state.request_id,
        omit,
    )
    sent = fingerprint(
        request.method, request.url.path, request.scope["query_string"], await request.body()
    )
    params = {
        **held.params(),
        "p_fingerprint": sent,
        "p_now": now,
        "p_lease": now + timedelta(seconds=settings.idempotency_lease_seconds),
        "p_expires": now + timedelta(hours=settings.idempotency_ttl_hours),
    }
    won, _ = await _execute(connection, _CLAIM[connection.dialect.name], params)
    if won:
        return held
    found, _ = await _execute(connection, _READ, params)
    if not found:  # deleted between the two statements (released): as if in flight
        raise IdempotencyKeyInUse()
    row = found[0]
    if row["fingerprint"] != sent:
        raise IdempotencyKeyReused()
    if row["status"] != COMPLETED:
        raise IdempotencyKeyInUse()
    body = unseal(settings.keys, _PURPOSE, row["response_body"], held.bound_to).encode()
    return Response(
        body,
        status_code=row["response_status"],
        media_type="application/json",
        headers={REPLAYED_HEADER: "true"},
    )


async def complete(
    connection: AsyncConnection,
    held: Claim,
    response: Response,
    *,
    now: datetime,
    settings: Settings,
) -> None:
    """Stores the answer in the request's own transaction; 409 (and the work rolls back)
    when the claim was taken over meanwhile."""
    body = bytes(response.body)
    if held.omit:
        body = _without(body, held.omit)
    contacts = sorted({match.decode() for match in _CONTACT_ID.findall(body)})
    _, stored = await _execute(
        connection,
        _COMPLETE,
        {
            **held.params(),
            "p_status": response.status_code,
            "p_body": seal(settings.keys, _PURPOSE, body.decode(), held.bound_to),
            "p_contacts": f" {' '.join(contacts)} " if contacts else None,
            "p_now": now,
            "p_expires": now + timedelta(hours=settings.idempotency_ttl_hours),
        },
    )
    if stored != 1:
        raise IdempotencyKeyInUse(
            "This request's hold on its Idempotency-Key ran out and "
            "another request took it over; nothing was done."
        )


def _without(body: bytes, omit: tuple[str, ...]) -> bytes:
    """The stored body less the members never replayed (a webhook's secret)."""
    value = orjson.loads(body)
    if isinstance(value, dict):
        value = {name: item for name, item in value.items() if name not in omit}
    return orjson.dumps(value)


async def release(db: Database, held: Claim) -> None:
    """Frees the key of a request that did nothing (its transaction rolled back). A
    failure here only leaves the key held until its lease ends."""
    try:
        async with db.transaction() as connection:
            await _execute(connection, _RELEASE, held.params())
    except Exception:
        log.warning(
            "could not release an Idempotency-Key claim; it frees itself when its lease ends",
            exc_info=True,
        )


async def prune_expired(connection: AsyncConnection, now: datetime, batch: int) -> int:
    """Deletes up to `batch` rows past their TTL; returns how many (for the retention job)."""
    doomed = select(*_PRIMARY_KEY).where(keys.c.expires_at <= now).limit(batch)
    result = await connection.execute(delete(keys).where(tuple_(*_PRIMARY_KEY).in_(doomed)))
    return result.rowcount


async def scrub_contact_responses(session: TenantSession, contact_id: str) -> None:
    """DELETE /contacts/{id}: stored answers naming the contact are deleted (their keys
    are free again), because a replay would show what was just erased."""
    await session.execute(
        session.delete(keys).where(keys.c.contact_ids.contains(f" {contact_id} ", autoescape=True))
    )
