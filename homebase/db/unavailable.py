"""Which database failures are "cannot serve right now", 503 with Retry-After, not 500:
the server unreachable or refusing, no connection within the pool timeout, a connection
dead mid-statement, the statement timeout, SQLite's lock past its busy timeout. A
connection a driver error broke (`breaks_connection`) is invalidated, never pooled again."""

import asyncpg
from sqlalchemy import exc
from sqlalchemy.engine import ExceptionContext

from homebase.kit.errors import ServiceUnavailable

RETRY_AFTER_SECONDS = 2

# PostgreSQL SQLSTATEs: class 08 connection exception, 57014 query_canceled (the
# statement timeout), 57P01-57P05 shutdown / cannot connect now / idle session
# timeout, 53300 too_many_connections.
_UNAVAILABLE_STATES = ("08", "57014", "57P0", "53300")
_CONNECTION_ENDED_STATES = ("08", "57P0")
BROKEN = (asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
POOL_TIMEOUT = "No database connection became free in time; retry shortly."
_SQLITE_BUSY = ("database is locked", "database table is locked")


class DatabaseUnavailable(ServiceUnavailable):
    message = "The database is not answering; retry shortly."

    def __init__(self, message: str | None = None):
        super().__init__(message, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def _sqlstate(error: BaseException) -> str:
    for candidate in (getattr(error, "orig", None), error.__cause__, error):
        state = getattr(candidate, "sqlstate", None) or getattr(candidate, "pgcode", None)
        if isinstance(state, str):
            return state
    return ""


def reason(error: BaseException) -> str | None:
    """What made the database unavailable, or None when `error` is not such a failure."""
    if isinstance(error, DatabaseUnavailable):
        return error.message
    if isinstance(error, exc.TimeoutError):  # QueuePool: no connection within pool_timeout
        return POOL_TIMEOUT
    if isinstance(error, exc.DBAPIError):
        state = _sqlstate(error)
        if state == "57014":
            return "The database statement ran past its time limit; retry shortly."
        if error.connection_invalidated or state.startswith(_UNAVAILABLE_STATES):
            return DatabaseUnavailable.message
        if isinstance(error, exc.OperationalError) and any(
            text in str(error.orig) for text in _SQLITE_BUSY
        ):
            return "The database stayed busy past its time limit; retry shortly."
    return None


def breaks_connection(error: BaseException) -> bool:
    """Closed (InterfaceError, OSError), lost its place in the protocol (asyncpg's
    InternalClientError, seen as the server restarts under load) or ended by the server."""
    if isinstance(error, BROKEN):
        return True
    return str(getattr(error, "sqlstate", "") or "").startswith(_CONNECTION_ENDED_STATES)


def on_statement_error(context: ExceptionContext) -> None:
    """The engines' `handle_error` hook: SQLAlchemy invalidates such a connection too."""
    original = context.original_exception  # SQLAlchemy's adapter wraps asyncpg's error
    if breaks_connection(original.__cause__ or original):
        context.is_disconnect = True


def on_connect_failure(error: Exception) -> Exception:
    """Any failure to obtain a connection (refused, timed out, the pool exhausted, the
    server shutting down) is unavailability: the statement never ran."""
    if isinstance(error, (OSError, exc.DBAPIError, exc.TimeoutError)):
        return DatabaseUnavailable(reason(error) or DatabaseUnavailable.message)
    return error
