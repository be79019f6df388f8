"""`column IN (a list of values)` with the whole list as one bound parameter.

SQLAlchemy's expanding IN writes one placeholder per value, so each length is its own
statement text, and on PostgreSQL a row-value list, `(workspace_id, column) IN ((..),
..)`, is planned as one index scan per value: 12.8 ms of planning for 250 values before
a millisecond of work. Here the list travels as one parameter, an array unnested on
PostgreSQL and a JSON array read by json_each on SQLite: one statement text whatever the
length, prepared once, planned in well under a millisecond, and answered as a semi-join
that probes the (workspace_id, column) btree once per value.

The semi-join matters beside the contacts search's trigram GIN indexes: `column =
ANY(array)` is one condition the GIN index also answers, and PostgreSQL took it on a
grown table's outdated statistics (772 ms for 250 emails; docs/performance.md, "Bulk
imports"); the unnested list joined to the btree's columns is planned as a nested loop of
btree probes.
"""

from typing import Any

import orjson
from sqlalchemy import Boolean, ColumnElement, String, bindparam
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import TypeDecorator, TypeEngine


class ValueList(TypeDecorator[list[str]]):
    """A list of strings as one parameter: a text[] on PostgreSQL, JSON text on SQLite."""

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


class InValues(ColumnElement[bool]):
    """`column IN (the values of the bound list named name)`: see the module."""

    type = Boolean()
    inherit_cache = True
    _traverse_internals = [
        ("column", InternalTraversal.dp_clauseelement),
        ("values", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, column: ColumnElement[Any], name: str) -> None:
        self.column = column
        self.values = bindparam(name, type_=ValueList())


def in_values(column: ColumnElement[Any], name: str) -> InValues:
    """`column IN (...)` of the list bound as `name` (a list of strings)."""
    return InValues(column, name)


@compiles(InValues, "postgresql")
def _unnested(element: InValues, compiler: SQLCompiler, **kw: Any) -> str:
    column, values = compiler.process(element.column, **kw), compiler.process(element.values, **kw)
    return f"{column} IN (SELECT unnest({values}))"


@compiles(InValues, "sqlite")
def _json_each(element: InValues, compiler: SQLCompiler, **kw: Any) -> str:
    column, values = compiler.process(element.column, **kw), compiler.process(element.values, **kw)
    return f"{column} IN (SELECT value FROM json_each({values}))"
