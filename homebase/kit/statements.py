"""Type names for statements as they pass between the layers."""

from typing import Any, TypeAlias

from sqlalchemy import Delete, Insert, Row, Select, TextClause, Update

# SQLAlchemy 2.1 types a SELECT by its columns' types (Select[str, int]); statements here
# are built from tables and column lists and their rows read as dicts, so they are not.
AnySelect: TypeAlias = Select[*tuple[Any, ...]]
# What TenantSession runs (a TextClause too: raw SQL in tests and tools).
AnyStatement: TypeAlias = AnySelect | Insert | Update | Delete | TextClause
# A row of such a statement, read by attribute or index.
AnyRow: TypeAlias = Row[*tuple[Any, ...]]
