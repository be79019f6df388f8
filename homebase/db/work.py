"""New background work, announced when the transaction that made it commits.

Whoever writes work for the worker (an event, a queued message, an enrolment) calls
`mark(connection)` in its transaction (`TenantSession.mark_work()`); Database tracks every
transaction (`track`) and, after a marked one commits (only then), calls its `on_work`
callbacks: the in-process Wakeup and, on PostgreSQL, the Notifier (db/notifier.py), whose
NOTIFY wakes worker processes (worker/wakeup.py). An unmarked transaction pays a context
variable set and reset. The mark is matched to its connection through the task's context,
so a nested transaction on another connection cannot take it.
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
