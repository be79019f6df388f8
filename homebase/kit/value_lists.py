"""`column IN (a list of strings)` with the whole list bound as one parameter.

SQLAlchemy's expanding IN writes a placeholder per value, so each length is its own
statement text, and PostgreSQL plans a list of row values as one index scan per value,
each time. Here the list is one parameter (ValueList: an array on PostgreSQL, JSON text on
SQLite), unnested or read by json_each in a subquery: one statement text whatever the
length, prepared once, planned as a semi-join that probes the column's btree once per
value (the import's lookups; docs/performance.md, "Bulk imports", has the plans). Not
`column = ANY(array)`: that one condition the contacts search's trigram GIN indexes also
answer, and PostgreSQL took them on outdated statistics, far slower. They answer this
form's `=` too, so an import's batch runs without bitmap scans, GIN's only way in
(imports/jobs.py).
"""

from typing import Any

import orjson
from sqlalchemy import ColumnElement, String, bindparam, func, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine


class ValueList(TypeDecorator[list[str]]):
    """A list of strings as one parameter: a text array on PostgreSQL, JSON on SQLite."""

    impl = String
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(ARRAY(String()))
        return dialect.type_descriptor(String())

    def process_bind_param(self, value: list[str] | None, dialect: Dialect) -> Any:
        if value is None or dialect.name == "postgresql":
            return value
        return orjson.dumps(value).decode()


def in_values(column: ColumnElement[Any], name: str, dialect: str) -> ColumnElement[bool]:
    """`column IN (...)` of the list bound as `name`, written for `dialect` (its name)."""
    values = bindparam(name, type_=ValueList())
    if dialect == "postgresql":
        return column.in_(select(func.unnest(values)))
    return column.in_(select(func.json_each(values).table_valued("value").c.value))
