"""The leased queue: how every kind of background work is claimed, fenced, swept and
retried. The four kinds are rows: webhook deliveries (webhooks/dispatcher.py), message
sends (messaging/jobs.py), calendar pushes (calendars/jobs.py) and automation
enrolments (automations/engine.py). Each names its lease columns with a `Lease`; what
the kind does with a row (its statuses, its events, when it gives up) stays with it.

- **Claim.** `take` selects due rows FOR UPDATE SKIP LOCKED on PostgreSQL: a claimer
  skips the rows another claimer holds instead of waiting for them, so concurrent
  workers never pick the same row. On SQLite the write transaction (BEGIN IMMEDIATE,
  db/engine.py) serialises claimers. `Lease.grant` writes the lease (a fresh token, an
  expiry, one more attempt) in that same transaction: once it commits, the row is held.
  `Lease.claim` is the two in one, for a kind that leases what it takes (or what its
  `choose` keeps of it: a kind that gives up on some rows, or refuses them, first).
- **Fence.** The token is a fencing token. A holder records its outcome through
  `Lease.held`, an update that matches only while the row still carries its token, so
  the late result of a worker whose lease expired and was taken back (swept, or claimed
  again) changes nothing.
- **Expiry.** A worker that dies (SIGKILL) mid-work leaves its lease to expire: a
  sweeper finds the row with `Lease.lapsed`, or the kind's claim takes it again
  (`Lease.vacant`), as the kind decides. Time is always passed in (`now`, from
  runtime.clock()), never read here, so tests move leases with a FrozenClock.
- **Backoff.** A failure is retried after 1, 2, 4, ... units (`backoff`).

The automation engine holds an enrolment by its row lock alone, for the one transaction
its step takes (a dead worker's lock goes with its connection), so it uses `take` and
`backoff` only. tests/worker/test_leased_queue.py holds these guarantees on both databases.
"""

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    Table,
    Update,
    bindparam,
    or_,
    select,
    update,
)
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.kit.ids import new_id
from homebase.kit.statements import AnySelect


def skip_locked(statement: AnySelect, connection: AsyncConnection) -> AnySelect:
    """`statement` locking the rows it reads, skipping rows another transaction holds
    (PostgreSQL). SQLite has no row locks: its one writer at a time stands in."""
    if connection.dialect.name == "postgresql":
        return statement.with_for_update(skip_locked=True)
    return statement


async def take(connection: AsyncConnection, statement: AnySelect) -> Sequence[RowMapping]:
    """The rows `statement` selects, held by this transaction until it ends."""
    return (await connection.execute(skip_locked(statement, connection))).mappings().all()


def backoff(failures: int, unit_seconds: float) -> timedelta:
    """The wait after the n-th failure (n >= 1): 1, 2, 4, 8, ... units."""
    return timedelta(seconds=unit_seconds * 2 ** (failures - 1))


@dataclass(frozen=True)
class Lease:
    """A table's lease columns. `token` is the fence: a fresh id per claim, named
    `token_prefix` (a webhook delivery's token is the id of the attempt it makes)."""

    table: Table
    token: Column[Any]
    expires: Column[Any]
    attempts: Column[Any]
    token_prefix: str = "lse"

    def vacant(self, now: datetime) -> ColumnElement[bool]:
        """Not leased, or its lease has run out."""
        return or_(self.token.is_(None), self.expires <= now)

    def expired(self, now: datetime) -> ColumnElement[bool]:
        return self.expires <= now

    async def lapsed(
        self, connection: AsyncConnection, now: datetime, *where: Any, columns: Iterable[Any] = ()
    ) -> Sequence[RowMapping]:
        """For a sweeper: rows matching `where` whose lease has expired, held as `take`
        holds them. Releasing one is fenced by the token it still carries."""
        chosen = tuple(columns) or (self.table,)
        return await take(connection, select(*chosen).where(*where, self.expired(now)))

    async def grant(
        self,
        connection: AsyncConnection,
        ids: Sequence[str],
        until: datetime,
        **values: Any,
    ) -> dict[str, str]:
        """Leases rows `take` returned, in its transaction, until `until`: each gets a
        fresh token and one more attempt; `values` are the kind's own columns. Returns
        each id's token."""
        tokens = {row_id: new_id(self.token_prefix) for row_id in ids}
        if tokens:
            key = self.table.c.id
            await connection.execute(
                update(self.table)
                .where(key == bindparam("lease_row"))
                .values(
                    {
                        self.token.key: bindparam("lease_token_value"),
                        self.expires.key: until,
                        self.attempts.key: self.attempts + 1,
                        **values,
                    }
                ),
                [
                    {"lease_row": row_id, "lease_token_value": token}
                    for row_id, token in tokens.items()
                ],
            )
        return tokens

    async def claim(
        self,
        connection: AsyncConnection,
        due: AnySelect,
        until: datetime,
        *,
        choose: Callable[[Sequence[RowMapping]], Awaitable[Sequence[RowMapping]]] | None = None,
        **values: Any,
    ) -> list[tuple[RowMapping, str]]:
        """`take` the rows `due` selects and `grant` them until `until` with `values`, in
        this transaction: (row as read, its token), in `due`'s order. `choose`, given
        the rows taken, returns those to lease; what becomes of the others (failed,
        refused, left for later) is its to write, in this transaction too."""
        taken = await take(connection, due)
        chosen = taken if choose is None else await choose(taken)
        tokens = await self.grant(connection, [row["id"] for row in chosen], until, **values)
        return [(row, tokens[row["id"]]) for row in chosen]

    def held(self, statement: Update, token: Any) -> Update:
        """`statement` fenced: it changes a row only while `token` (a value or a
        bindparam) still holds the row's lease."""
        return statement.where(self.token == token)

    @property
    def released(self) -> dict[str, None]:
        """The values that give a lease back."""
        return {self.token.key: None, self.expires.key: None}
