"""A list's reads, typed by the record its rows are (`Listing[LeadRecord]`).

A repository describes each of its lists once, as a `Listing`: the keyset page it runs
for a cursor's position (`page(after_id, limit)`: a statement, a kept statement and its
values, or steps tried in turn: paging/pages.py) and, for a synced list, its walk of changes
(`walk(resuming)`: paging/changes.py). The one pagination function (http/lists.paginate) and
an export's batches (exports/objects.py) run it; neither knows the list's table or
filters, and the record type flows from the repository to the render function the
endpoint hands paginate, so mypy holds the two alike. The rows stay the dicts the session
reads: the type costs nothing at run time.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Table

from homebase.kit.pagination import keyset
from homebase.kit.statements import AnySelect
from homebase.paging import changes
from homebase.paging.pages import Built, Step

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Listing(Generic[R]):
    page: Callable[[str | None, int], Built | list[Step]]
    walk: Callable[[bool], Built] | None = None  # None: the list takes no updated_after

    @staticmethod
    def synced(statement: AnySelect, table: Table, dialect: str) -> "Listing[Any]":
        """The list of `statement` (a select of `table` with the list's scope and
        filters): newest first by id, and its walk of changes by (updated_at, id)."""

        def page(after_id: str | None, limit: int) -> Built:
            return keyset(statement, table.c.id, after_id, limit)

        def walk(resuming: bool) -> Built:
            return changes.statement(statement, table, dialect, resuming=resuming)

        return Listing(page, walk)

    @staticmethod
    def newest(statement: AnySelect, table: Table) -> "Listing[Any]":
        """The list of `statement` (a select of `table`), newest first by id."""

        def page(after_id: str | None, limit: int) -> Built:
            return keyset(statement, table.c.id, after_id, limit)

        return Listing(page)
