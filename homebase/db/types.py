"""Column types that behave the same on SQLite and PostgreSQL."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import JSON, ColumnElement, DateTime, String, func, literal_column, type_coerce
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from homebase.kit.clock import isoformat

JSONValue = JSON().with_variant(JSONB(), "postgresql")


_NAIVE_LENGTHS = (19, 26)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out, even on SQLite, which stores them naive."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def bind_processor(self, dialect: Dialect) -> Callable[[datetime | None], Any] | None:
        # SQLite: process_bind_param and SQLAlchemy's DATETIME in one function (hot in imports)
        return _sqlite_text if dialect.name == "sqlite" else super().bind_processor(dialect)

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTCDateTime column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def result_processor(
        self, dialect: Dialect, coltype: object
    ) -> Callable[[Any], datetime | None] | None:
        if dialect.name == "sqlite":
            return self.sqlite_result_processor()
        if self.impl_instance.dialect_impl(dialect).result_processor(dialect, coltype):
            return super().result_processor(dialect, coltype)  # the driver's value needs it
        return _aware_utc  # asyncpg's timestamptz: already an aware datetime

    def sqlite_result_processor(self) -> Callable[[str | None], datetime | None]:
        parse = datetime.fromisoformat  # what SQLAlchemy's SQLite DATETIME does, then ours

        def process(value: str | None) -> datetime | None:
            if value is None:
                return None
            if len(value) in _NAIVE_LENGTHS:  # SQLAlchemy's naive UTC text: offset appended
                try:
                    return parse(value + "+00:00")
                except ValueError:
                    pass
            moment = parse(value)
            return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

        # One function per value instead of TypeDecorator's chain of two (hot in lists).
        return process

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _sqlite_text(value: datetime | None) -> str | None:
    """SQLAlchemy's SQLite DATETIME text of the moment in UTC: "YYYY-MM-DD HH:MM:SS.ffffff"."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetime given to a UTCDateTime column")
    return value.astimezone(UTC).isoformat(" ", "microseconds")[:26]


def _aware_utc(value: datetime | None) -> datetime | None:
    """process_result_value as one function (TypeDecorator chains two, and this runs for
    every timestamp of every row listed); asyncpg's values are already in UTC."""
    if value is None:
        return None
    zone = value.tzinfo
    if zone is UTC:
        return value
    return value.replace(tzinfo=UTC) if zone is None else value.astimezone(UTC)


# Values as SQLite stores them (`stored`, read by contacts/render.list_item), to the wire.

_FROM_SQLITE = UTCDateTime().sqlite_result_processor()


def stored_time_to_wire(value: str | None) -> str | None:
    """A UTCDateTime as SQLite stores it ("YYYY-MM-DD HH:MM:SS[.ffffff]", naive UTC) in
    kit.clock.isoformat's form, by slicing (a fifth of parsing); another form is parsed."""
    if value is None:
        return None
    if value[10:11] == " ":
        if len(value) == 26:
            return f"{value[:10]}T{value[11:23]}Z"
        if len(value) == 19:
            return f"{value[:10]}T{value[11:]}.000Z"
    return isoformat(_FROM_SQLITE(value))


# kit.clock.isoformat's text as PostgreSQL writes it: to_char of the UTC time, its MS
# field truncated to milliseconds as isoformat's are (tests/db/test_wire_time.py).
_WIRE_TIME_FORMAT = literal_column("""'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'""", String)
_UTC = literal_column("'UTC'", String)


def wire_time(column: ColumnElement[Any], dialect: str) -> ColumnElement[Any]:
    """A UTCDateTime column read as the wire's text (kit.clock.isoformat), labelled with
    its name: on PostgreSQL to_char in UTC, cheaper than decoding and formatting a datetime
    here; on SQLite the stored text, for stored_time_to_wire to slice."""
    if dialect != "postgresql":
        return stored(column)
    return func.to_char(func.timezone(_UTC, column), _WIRE_TIME_FORMAT).label(column.key)


def stored(column: ColumnElement[Any]) -> ColumnElement[Any]:
    """`column` read as the text SQLite stores, without its type's result processing
    (SQLAlchemy's type_coerce: the SQL is the column's own)."""
    return type_coerce(column, String).label(column.key)


def stored_json_to_wire(value: str | None) -> orjson.Fragment | None:
    """A JSON column as SQLite stores it (JSON text), embedded in the response as it is."""
    return None if value is None else orjson.Fragment(value)
