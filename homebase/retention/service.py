"""Retention: deleting what grows without bound once nothing needs it (docs/operations.md,
"Retention").

Every kind of row that is pruned is one Prunable in KINDS: its table, the condition that
says a row may go (given the settings and `now`), and the child rows that must go with it
(deleted first, in the same transaction, so foreign keys hold). A new kind is one entry.

Pruning runs in batches: a batch selects at most HOMEBASE_RETENTION_BATCH_SIZE keys by an
indexed time column and deletes them in one short transaction, so no table is locked for
long; a run makes at most HOMEBASE_RETENTION_MAX_BATCHES batches per kind. On PostgreSQL
the batch locks the rows it selected (FOR UPDATE SKIP LOCKED): a row another transaction
is changing (a redelivery, a refresh) is skipped, and one selected cannot change before it
is deleted. On SQLite the batch is a write transaction (BEGIN IMMEDIATE), which serialises
it with every other writer. The DELETE repeats the condition all the same.

Business data (contacts, leads, messages, timeline, calls, ...) is never pruned here.
"""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Column, ColumnElement, Table, delete, exists, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.config import Settings
from homebase.db.engine import Database
from homebase.models import (
    ConsoleSession,
    DataImport,
    IdempotencyKey,
    ImportRowError,
    OAuthCode,
    OAuthToken,
    OutboxEvent,
    TaskDedupe,
    WebhookAttempt,
    WebhookDelivery,
)
from homebase.worker import queue

outbox = OutboxEvent.__table__
deliveries = WebhookDelivery.__table__
attempts = WebhookAttempt.__table__
console_sessions = ConsoleSession.__table__
codes = OAuthCode.__table__
tokens = OAuthToken.__table__
task_dedupe = TaskDedupe.__table__
idempotency_keys = IdempotencyKey.__table__
imports = DataImport.__table__
import_errors = ImportRowError.__table__

# A finished delivery: no worker will touch it again unless someone redelivers it (which
# makes it pending, with completed_at cleared, until it finishes again).
FINISHED = ("succeeded", "failed", "cancelled")
# Margins past a row's own expiry, so a row is never deleted while a request that read it
# just before it expired is still using it, and clocks of several instances may differ.
SESSION_GRACE = timedelta(days=1)
CODE_GRACE = timedelta(days=1)
TOKEN_GRACE = timedelta(days=1)
DEDUPE_GRACE = timedelta(minutes=5)  # the claim window is 60 s (homebase/tasks/service.py)

Condition = Callable[[Settings, datetime], ColumnElement[bool]]


@dataclass(frozen=True)
class Prunable:
    name: str
    table: Table
    condition: Condition  # the rows that may be deleted at `now`
    # Foreign keys to this table's primary key whose rows are deleted first, with it.
    children: tuple[Column[Any], ...] = field(default=())


def _events_cutoff(settings: Settings, now: datetime) -> datetime:
    return now - timedelta(days=settings.retention_events_days)


def _finished_deliveries(settings: Settings, now: datetime) -> ColumnElement[bool]:
    return deliveries.c.status.in_(FINISHED) & (
        deliveries.c.completed_at < _events_cutoff(settings, now)
    )


def _dispatched_events(settings: Settings, now: datetime) -> ColumnElement[bool]:
    """Fanned out long enough ago, and no delivery names it any more: while a delivery is
    kept (pending, or finished within the period) its event is too, since it is built from
    the event at send time and a redelivery needs it."""
    still_delivered = select(deliveries.c.id).where(deliveries.c.event_id == outbox.c.id)
    return (outbox.c.dispatched_at < _events_cutoff(settings, now)) & ~exists(still_delivered)


def _ended_sessions(_settings: Settings, now: datetime) -> ColumnElement[bool]:
    # expires_at is the absolute limit (12 h); idle and signed-out sessions end earlier
    # and are refused already, so their rows are of no use past it either.
    return console_sessions.c.expires_at < now - SESSION_GRACE


def _expired_codes(_settings: Settings, now: datetime) -> ColumnElement[bool]:
    # Used or not: a code lives 5 minutes; a late second redemption finds no code and is
    # refused as invalid instead of revoking what the first one issued.
    return codes.c.expires_at < now - CODE_GRACE


_family = tokens.alias("family")


def _spent_tokens(_settings: Settings, now: datetime) -> ColumnElement[bool]:
    """Past their expiry. A retired (rotated) refresh token presented again ends its whole
    family (the grant's tokens: homebase/oauth/tokens.py refresh), even after its own
    expiry, so an unrevoked retired one stays while its grant still has a live refresh
    token that a replay could end; once none is live, there is nothing left to protect."""
    live_family = select(_family.c.id).where(
        _family.c.grant_id == tokens.c.grant_id,
        _family.c.kind == "refresh",
        _family.c.revoked_at.is_(None),
        _family.c.retired_at.is_(None),
        _family.c.expires_at > now,
    )
    return (tokens.c.expires_at < now - TOKEN_GRACE) & (
        (tokens.c.kind == "access")
        | tokens.c.retired_at.is_(None)
        | tokens.c.revoked_at.is_not(None)
        | ~exists(live_family)
    )


def _expired_dedupe_claims(_settings: Settings, now: datetime) -> ColumnElement[bool]:
    return task_dedupe.c.expires_at < now - DEDUPE_GRACE


def _expired_idempotency_keys(_settings: Settings, now: datetime) -> ColumnElement[bool]:
    # Past HOMEBASE_IDEMPOTENCY_TTL_HOURS the key behaves as new anyway (idempotency/store.py).
    return idempotency_keys.c.expires_at <= now


def _finished_imports(settings: Settings, now: datetime) -> ColumnElement[bool]:
    """Finished imports (their rows were already deleted when they finished) are kept as
    long as dispatched events, with the rows they refused."""
    return imports.c.status.in_(("completed", "failed")) & (
        imports.c.finished_at < _events_cutoff(settings, now)
    )


# In order: deliveries go before the events they name.
KINDS: list[Prunable] = [
    Prunable(
        "webhook_deliveries", deliveries, _finished_deliveries, children=(attempts.c.delivery_id,)
    ),
    Prunable("outbox_events", outbox, _dispatched_events),
    Prunable("console_sessions", console_sessions, _ended_sessions),
    Prunable("oauth_codes", codes, _expired_codes),
    Prunable("oauth_tokens", tokens, _spent_tokens),
    Prunable("task_dedupe", task_dedupe, _expired_dedupe_claims),
    Prunable("idempotency_keys", idempotency_keys, _expired_idempotency_keys),
    Prunable("imports", imports, _finished_imports, children=(import_errors.c.import_id,)),
]


def _key(table: Table) -> ColumnElement[Any]:
    columns = list(table.primary_key.columns)
    return columns[0] if len(columns) == 1 else tuple_(*columns)


async def prune_batch(
    connection: AsyncConnection, kind: Prunable, *, settings: Settings, now: datetime, limit: int
) -> int:
    """One batch of `kind`, inside the caller's transaction. Returns rows deleted (not
    counting children)."""
    condition = kind.condition(settings, now)
    key_columns = list(kind.table.primary_key.columns)
    chosen = queue.skip_locked(select(*key_columns).where(condition).limit(limit), connection)
    keys = [tuple(row) for row in (await connection.execute(chosen)).all()]
    if not keys:
        return 0
    values = [key[0] for key in keys] if len(key_columns) == 1 else keys
    for child in kind.children:
        await connection.execute(delete(child.table).where(child.in_(values)))
    result = await connection.execute(
        delete(kind.table).where(_key(kind.table).in_(values), condition)
    )
    return result.rowcount


async def prune_kind(db: Database, kind: Prunable, *, settings: Settings, now: datetime) -> int:
    """Up to HOMEBASE_RETENTION_MAX_BATCHES batches, each its own transaction; stops at
    the first batch that finds less than a full batch."""
    size = settings.retention_batch_size
    total = 0
    for _ in range(settings.retention_max_batches):
        async with db.transaction() as connection:
            deleted = await prune_batch(connection, kind, settings=settings, now=now, limit=size)
        total += deleted
        if deleted < size:
            break
        await asyncio.sleep(0)  # let waiting requests in between batches
    return total


async def prune(
    db: Database, settings: Settings, *, now: datetime, kinds: list[Prunable] | None = None
) -> dict[str, int]:
    """One run over every kind: rows deleted per kind name."""
    return {
        kind.name: await prune_kind(db, kind, settings=settings, now=now)
        for kind in (KINDS if kinds is None else kinds)
    }
