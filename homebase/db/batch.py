"""A PostgreSQL write request's writes that nobody waits for, sent as one statement.

Most of a write request's statements are INSERTs and UPDATEs whose outcome the code
does not read: the row itself, its timeline entries, its outbox events. Sent one by
one, each is a round trip and a wake-up of the event loop, and a row lock taken early
in the transaction is held through all of them. TenantSession's `insert`, `insert_many`
and `execute_later` hand such writes to the request's `Batch` instead (db/direct.py,
`defer=True`); they are sent together, as data-modifying WITH clauses of one
statement (PostgreSQL runs every such clause once, to completion, whether or not the
statement reads it):

- with the next statement that must run now, when that is a write to another table
  (an UPDATE ... RETURNING that takes a turn: `WITH w0 AS (INSERT ...) UPDATE ...`);
- alone, before a read (a read sees the transaction's own writes), a write to a table
  the batch wrote, or anything run through SQLAlchemy (db/request.py);
- at the end of the request, as its last statement (alone: no BEGIN, no COMMIT, when
  nothing was sent before).

PostgreSQL runs a statement's main query first, then its data-modifying WITH clauses
from the last written to the first (nodeModifyTable.c, ExecInitModifyTable: later ones
are shut down first). The docs call that order unpredictable, and nothing here depends
on it for its result; but the clauses are written in reverse so that, as PostgreSQL runs
them today, rows are written and locked in the order the code asked: a row lock taken by
a request's last write (a contact handed to the agent a lead went to) is then held for
the end of the statement and its COMMIT only, not while the writes before it run.

Every clause of one statement sees the database as it was before the statement. So a
deferred UPDATE or DELETE of a table the batch already wrote is not added to it: the
batch is sent first, and the statement starts the next one, as it would have seen the
earlier writes had they run one by one, unless its caller vouches that it touches other
rows than they did and that they moved no row into or out of its WHERE
(`TenantSession.execute_later(..., disjoint=True)`: leads/repository.py's two consent
UPDATEs, NULL expiry and sooner expiry). An INSERT reads no rows and may join any batch
(unique indexes see the clauses' rows at once; foreign keys are checked at the end of
the statement, after every clause).

A statement is combined only when its SQL holds no quoted text (`$n` placeholders are
renumbered by text) and the batch stays under asyncpg's 32,767 parameters. An error of
a deferred write is raised by the statement that sends it, as SQLAlchemy's exception
class (db/postgres.py); the request fails and its transaction rolls back, as it would
have. Callers that expect an error (a unique key they handle) do not defer.
"""

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

_PLACEHOLDER = re.compile(r"\$(\d+)")
_DOLLAR_QUOTE = re.compile(r"\$(?!\d)")
MAX_ARGUMENTS = 30_000  # asyncpg's (and the protocol's) limit is 32,767 per statement


class Write(NamedTuple):
    """One deferred statement: its SQL as compiled ($1..$n), its arguments, the table it
    writes and whether it reads rows of that table that the batch's earlier writes may
    have changed (an UPDATE or DELETE, unless its caller vouches otherwise)."""

    sql: str
    arguments: list[Any]
    table: str
    reads_table: bool


def combinable(sql: str) -> bool:
    """Whether `sql` can be renumbered and nested by text: no quoted text, no dollar
    quoting, no WITH of its own. (Identifiers are the models' own: none holds `$n`.)"""
    return (
        "'" not in sql
        and not _DOLLAR_QUOTE.search(sql)
        and not sql.lstrip().upper().startswith("WITH")
    )


def _shift(sql: str, offset: int) -> str:
    if offset == 0:
        return sql
    return _PLACEHOLDER.sub(lambda match: f"${int(match.group(1)) + offset}", sql)


_MANY: dict[tuple[str, int, int], str] = {}


def insert_rows(sql: str, width: int, count: int) -> str | None:
    """`sql`, an INSERT ... VALUES (one row of `width` placeholders), as one INSERT of
    `count` rows; None when its shape is not that."""
    key = (sql, width, count)
    many = _MANY.get(key)
    if many is not None:
        return many
    head, found, row = sql.rpartition(" VALUES ")
    if not found or not row.startswith("(") or not row.endswith(")") or "VALUES" in head:
        return None
    rows = ", ".join(_shift(row, index * width) for index in range(count))
    many = f"{head} VALUES {rows}"
    if len(_MANY) < 1024:
        _MANY[key] = many
    return many


_COMBINED: dict[tuple[str, ...], str] = {}


def combine(
    writes: Sequence[Write], main: str, main_arguments: Sequence[Any]
) -> tuple[str, list[Any]]:
    """One statement: `main` (a statement of its own, which gives the result) with
    `writes` as WITH clauses in front of it, written last first (see above), with every
    argument in place."""
    if not writes:
        return main, list(main_arguments)
    emitted = writes[::-1]
    key = (*(write.sql for write in emitted), main)
    arguments: list[Any] = []
    for write in emitted:
        arguments.extend(write.arguments)
    sql = _COMBINED.get(key)
    if sql is None:
        clauses, offset = [], 0
        for index, write in enumerate(emitted):
            clauses.append(f"w{index} AS ({_shift(write.sql, offset)})")
            offset += len(write.arguments)
        sql = f"WITH {', '.join(clauses)} {_shift(main, offset)}"
        if len(_COMBINED) < 1024:
            _COMBINED[key] = sql
    arguments.extend(main_arguments)
    return sql, arguments


class Batch:
    """The deferred writes of one request's connection, in order."""

    __slots__ = ("writes", "tables", "size")

    def __init__(self) -> None:
        self.writes: list[Write] = []
        self.tables: set[str] = set()
        self.size = 0  # arguments

    def __bool__(self) -> bool:
        return bool(self.writes)

    def accepts(self, write: Write) -> bool:
        """Whether `write` may join: it reads no table the batch wrote, and the batch
        stays within the parameter limit."""
        if write.reads_table and write.table in self.tables:
            return False
        return self.size + len(write.arguments) <= MAX_ARGUMENTS

    def independent_of(self, table: str | None, width: int) -> bool:
        """Whether a statement that must run now, writing `table` with `width`
        arguments, may carry the batch."""
        return (
            table is not None and table not in self.tables and (self.size + width <= MAX_ARGUMENTS)
        )

    def add(self, write: Write) -> None:
        self.writes.append(write)
        self.tables.add(write.table)
        self.size += len(write.arguments)

    def take(self) -> list[Write]:
        writes = self.writes
        self.writes, self.tables, self.size = [], set(), 0
        return writes

    def clear(self) -> None:
        self.take()
