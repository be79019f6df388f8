"""New background work, announced when the transaction that made it commits.

Whoever writes work for the worker (an event, a queued message, an enrolment) calls
`mark(connection)` in its transaction (`TenantSession.mark_work()`); Database opens every
transaction with `track(connection)`; when a marked transaction ends:

- after the commit, and only after a commit, Database calls its `on_work` callbacks:
  the Runtime's in-process Wakeup, which wakes a worker running in this process
  (`homebase serve`), and on PostgreSQL the Notifier (db/notifier.py), which sends
  `pg_notify('homebase_work', '')` on a connection of its own to every listening worker
  process (worker/wakeup.py). (Not inside the transaction: a NOTIFY there serializes
  every committing writer on PostgreSQL's notification queue lock.)

A transaction that marks nothing pays a context variable set and reset: no statement,
no callback. The mark is found through the context (the request's or job's task) and
matched to the connection it was made on, so a nested transaction on another connection
cannot take it.
"""

from contextvars import ContextVar, Token

CHANNEL = "homebase_work"


class Pending:
    __slots__ = ("connection", "parent", "marked")

    def __init__(self, connection: object, parent: "Pending | None"):
        self.connection = connection
        self.parent = parent
        self.marked = False


_current: ContextVar[Pending | None] = ContextVar("homebase_pending_work", default=None)


def track(connection: object) -> tuple[Pending, Token[Pending | None]]:
    """Start tracking marks for `connection`'s transaction; `untrack(token)` at its end."""
    pending = Pending(connection, _current.get())
    return pending, _current.set(pending)


def untrack(token: Token[Pending | None]) -> None:
    _current.reset(token)


def mark(connection: object) -> None:
    """The transaction on `connection` wrote work for the worker: announce it on commit.
    A connection that Database did not open (a test's own) is not tracked: no-op."""
    pending = _current.get()
    while pending is not None:
        if pending.connection is connection:
            pending.marked = True
            return
        pending = pending.parent
