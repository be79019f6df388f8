"""CSV files as old CRMs export them, turned into the rows of POST /v1/imports.

Pure functions, no HTTP and no database: the console's upload page (or a script) calls
them in turn, and each step gives the person something to look at before the next. A
file is read as a stream, one row at a time (`CsvReader`): a 32 MiB upload is never held
whole in memory, only the row being read.

1. `CsvReader(binary)`: a binary file's rows: UTF-8 with or without a byte order mark,
   `,` or `;` as the separator (whichever the header line holds more of, outside
   quotes), quoted cells that span lines, a header row naming the columns. Bounded:
   MAX_COLUMNS columns, MAX_CELL_CHARS characters a cell, MAX_ROW_CHARS a row,
   MAX_FILE_ROWS rows. A file it cannot read raises `CsvError`, whose message names the
   line. `scan` reads a whole file through (the upload's check), `head` its first rows
   (the mapping page), `parse` a file in memory into a `CsvTable` (scripts, tests).
2. `preview(table)`: the columns, the first rows as {column: cell}, the row count and a
   suggested mapping (from the column names: "E-mail" -> email, ...).
3. `mapper(columns, mapping, object)`, `map_rows(table, mapping, object)`: {column:
   field} into row objects. Fields are the single create's members (CONTACT_FIELDS,
   LEAD_FIELDS); `custom_fields.<key>` (contacts) goes into row["custom_fields"][key]
   and `context.<key>` (leads) into row["context"]. An empty cell leaves the member out
   (a matched contact keeps its value), a `tags` cell is split on `,`, `;` or `|`.
   Values are not validated here: the import checks each row as the single create
   does, and its errors name the row's index.
4. `chunks(rows)`: the rows in imports of at most MAX_ROWS rows (and, given `max_bytes`,
   of a JSON body within it), each with the index of its first row, so an import's error
   at `index` is the file's row `start + index`, on line `table.lines[start + index]`.
"""

import csv
import dataclasses
import io
import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

import orjson

from homebase.contacts.schemas import ContactCreate, ContactStage
from homebase.imports import headers
from homebase.imports.schemas import MAX_ROWS, ImportObject
from homebase.kit.wire import JsonObject

MAX_COLUMNS = 200
MAX_CELL_CHARS = 20_000  # a contact's notes
# A row, all its cells and separators: what one row may hold in memory while it is read
# (a line of a million separators would otherwise be a million cells before the column
# count is checked).
MAX_ROW_CHARS = 1_000_000
MAX_FILE_ROWS = 200_000  # 40 imports of MAX_ROWS
PREVIEW_ROWS = 10
MAX_DISTINCT = 50  # a column's distinct values value mapping lists
MAX_VALUE_CHARS = 200  # a longer cell is no value to map
SEPARATORS = (",", ";")
TAG_SEPARATORS = (",", ";", "|")
CUSTOM_FIELDS = "custom_fields."
CONTEXT = "context."
_READ = 1 << 16  # bytes read at a time where a file is read in pieces
NOT_UTF8 = "the file is not UTF-8 text; export it as UTF-8 CSV"

# Every member of a contact's create body but custom_fields, mapped by prefix instead: read
# from the schema, so a member it gains is mappable at once.
CONTACT_FIELDS = tuple(name for name in ContactCreate.model_fields if name != "custom_fields")
LEAD_FIELDS = ("phone", "source", "first_name", "last_name", "email", "source_ref")
PREFIXES = {ImportObject.CONTACTS: CUSTOM_FIELDS, ImportObject.LEADS: CONTEXT}
FIELDS = {ImportObject.CONTACTS: CONTACT_FIELDS, ImportObject.LEADS: LEAD_FIELDS}


class CsvError(ValueError):
    """A file that cannot be read as CSV: the message says why and where."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class MappingError(ValueError):
    """A mapping that names an unknown column or field, or one field twice."""


@dataclass(frozen=True)
class CsvTable:
    columns: list[str]
    records: list[list[str]]  # one per row, as many cells as columns
    lines: list[int]  # the line each row starts on, for messages ("row 17, line 19")
    separator: str


@dataclass(frozen=True)
class CsvSummary:
    """What a whole read of a file found: its columns, separator and number of rows, and
    each column's distinct values with their counts (for value mapping; a column with
    more than MAX_DISTINCT of them is left out)."""

    columns: list[str]
    separator: str
    rows: int
    values: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Chunk:
    start: int  # the index (in the file's rows) of the chunk's first row
    rows: list[JsonObject]

    def body(
        self,
        kind: ImportObject,
        *,
        match_on: Sequence[str] | None = None,
        skip_routing: bool = False,
    ) -> JsonObject:
        """The POST /v1/imports body for this chunk."""
        body: JsonObject = {"object": kind.value, "rows": self.rows}
        if match_on is not None:
            body["match_on"] = list(match_on)
        if skip_routing:
            body["skip_routing"] = True
        return body


def _bad_line(binary: IO[bytes]) -> int:
    """The line holding the file's first byte that is not UTF-8, read again from the
    start in pieces (the text reader decodes ahead of the line it hands out)."""
    binary.seek(0)
    line, carry = 1, b""
    while piece := binary.read(_READ):
        data = carry + piece
        try:
            data.decode("utf-8")
            carry = b""
        except UnicodeDecodeError as error:
            if error.end < len(data) or error.reason != "unexpected end of data":
                return line + data[: error.start].count(b"\n")
            carry = data[error.start :]  # a character cut by the piece's end
            data = data[: error.start]
        line += data.count(b"\n")
    return line


def detect_separator(text: str) -> str:
    """`,` or `;`: the one the header line holds more of outside quotes (`,` on a tie)."""
    counts = dict.fromkeys(SEPARATORS, 0)
    quoted = False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif char in ("\n", "\r") and not quoted:
            break
        elif char in counts and not quoted:
            counts[char] += 1
    return ";" if counts[";"] > counts[","] else ","


def _header(cells: list[str], line: int) -> list[str]:
    columns = [cell.strip() for cell in cells]
    if len(columns) > MAX_COLUMNS:
        raise CsvError(f"{len(columns)} columns; at most {MAX_COLUMNS}", line)
    seen: set[str] = set()
    for number, name in enumerate(columns, start=1):
        if not name:
            raise CsvError(f"column {number} of the header row has no name", line)
        if name in seen:
            raise CsvError(f"the header names the column {name!r} twice", line)
        seen.add(name)
    return columns


class CsvReader:
    """A CSV file's rows, one at a time: `columns` and `separator` are read when it is
    made (CsvError for a file without a header), then iterating gives (line, cells) per
    row, as many cells as columns (a short row padded), blank lines skipped. `binary`
    is a seekable binary file, read from its current position; only the row being read
    is held."""

    def __init__(self, binary: IO[bytes], *, max_rows: int = MAX_FILE_ROWS):
        self._binary = binary
        self._max_rows = max_rows
        # utf-8-sig drops a byte order mark; newline="" hands lines over with their ends,
        # \r\n, \n or \r, as the csv module needs them.
        self._text = io.TextIOWrapper(
            io.BufferedReader(_Unclosed(binary), _READ),
            encoding="utf-8-sig",
            errors="strict",
            newline="",
        )
        self._line = 0  # physical lines read
        self._row_chars = 0  # characters of the row being read
        lines = self._lines()
        head = list(self._header_lines(lines))
        self.separator = detect_separator("".join(head).lstrip())
        self._reader = csv.reader(
            itertools.chain(head, lines), delimiter=self.separator, strict=True
        )
        self.columns: list[str] = []
        for line, cells in self._records():
            self.columns = _header(cells, line)
            break
        if not self.columns:
            raise CsvError("the file is empty")

    def _lines(self) -> Iterator[str]:
        while True:
            try:
                line = self._text.readline(MAX_ROW_CHARS + 1)
            except UnicodeDecodeError:
                raise CsvError(NOT_UTF8, _bad_line(self._binary)) from None
            if not line:
                return
            self._line += 1
            self._row_chars += len(line)
            if self._row_chars > MAX_ROW_CHARS:
                raise CsvError(f"a row holds more than {MAX_ROW_CHARS} characters", self._line)
            if "\x00" in line:
                raise CsvError(
                    "the file holds NUL characters; it is not a CSV text file", self._line
                )
            yield line

    @staticmethod
    def _header_lines(lines: Iterator[str]) -> Iterator[str]:
        """The lines up to the end of the first row that is not blank (a quoted header
        cell may span lines), for the separator's detection; blank lines before it
        included."""
        quotes = 0
        for line in lines:
            yield line
            quotes += line.count('"')
            if quotes % 2 == 0 and line.strip():
                return

    def _records(self) -> Iterator[tuple[int, list[str]]]:
        """(line, cells) of each row that is not blank, the header first: the physical
        line where the row starts (a quoted newline counts as the file does)."""
        reader = self._reader
        try:
            start = reader.line_num + 1
            for cells in reader:
                self._row_chars = 0
                if "".join(cells).strip():  # a cell that is not blank
                    yield start, cells
                start = reader.line_num + 1
        except csv.Error as error:
            raise CsvError(f"malformed CSV ({error})", reader.line_num) from None

    def __iter__(self) -> Iterator[tuple[int, list[str]]]:
        width = len(self.columns)
        count = 0
        for line, cells in self._records():
            if len(cells) > width:
                raise CsvError(
                    f"{len(cells)} cells but the header has {width} columns "
                    "(a separator inside an unquoted cell?)",
                    line,
                )
            if max(map(len, cells)) > MAX_CELL_CHARS:  # cells: one at least (_records)
                number, cell = next(
                    (number, cell)
                    for number, cell in enumerate(cells, start=1)
                    if len(cell) > MAX_CELL_CHARS
                )
                raise CsvError(
                    f"the cell in column {number} holds {len(cell)} characters; "
                    f"at most {MAX_CELL_CHARS}",
                    line,
                )
            if count >= self._max_rows:
                raise CsvError(f"more than {self._max_rows} rows; split the file", line)
            count += 1
            if len(cells) < width:  # exports often drop a row's trailing empty cells
                cells += [""] * (width - len(cells))
            yield line, cells


class _Unclosed(io.RawIOBase):
    """The caller's binary file as TextIOWrapper reads it, left open when the wrapper
    goes (the caller closes its own file)."""

    def __init__(self, binary: IO[bytes]):
        self._binary = binary

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._binary.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def scan(binary: IO[bytes], *, max_rows: int = MAX_FILE_ROWS) -> CsvSummary:
    """Reads the whole file through, one row at a time: CsvError for anything wrong."""
    reader = CsvReader(binary, max_rows=max_rows)
    counted: list[dict[str, int] | None] = [{} for _ in reader.columns]
    rows = 0
    for _line, cells in reader:
        rows += 1
        for number, cell in enumerate(cells):
            found = counted[number]
            value = cell.strip()
            if found is None or not value or len(value) > MAX_VALUE_CHARS:
                continue
            found[value] = found.get(value, 0) + 1
            if len(found) > MAX_DISTINCT:
                counted[number] = None
    values = {
        column: found
        for column, found in zip(reader.columns, counted, strict=True)
        if found is not None
    }
    return CsvSummary(reader.columns, reader.separator, rows, values)


def head(binary: IO[bytes], rows: int = PREVIEW_ROWS) -> CsvTable:
    """The columns and the first `rows` rows only."""
    reader = CsvReader(binary)
    records: list[list[str]] = []
    lines: list[int] = []
    for line, cells in itertools.islice(reader, rows):
        records.append(cells)
        lines.append(line)
    return CsvTable(reader.columns, records, lines, reader.separator)


def parse(data: bytes, *, max_rows: int = MAX_FILE_ROWS) -> CsvTable:
    """A whole file in memory as a table (scripts and tests; the console streams)."""
    reader = CsvReader(io.BytesIO(data), max_rows=max_rows)
    records: list[list[str]] = []
    lines: list[int] = []
    for line, cells in reader:
        records.append(cells)
        lines.append(line)
    return CsvTable(reader.columns, records, lines, reader.separator)


def suggested_mapping(
    columns: Sequence[str], kind: ImportObject, custom: Sequence[tuple[str, str]] = ()
) -> dict[str, str]:
    """{column: field} for the columns whose names say which field they hold (each field
    once, the first column naming it): imports/headers.py's table, and a custom field's
    key or label (`custom`: (key, label) pairs, contacts only)."""
    found = headers.guess(columns, FIELDS[kind], custom if kind is ImportObject.CONTACTS else ())
    return {column: guess.field for column, guess in found.items()}


def preview(
    table: CsvTable,
    kind: ImportObject = ImportObject.CONTACTS,
    rows: int = PREVIEW_ROWS,
    *,
    row_count: int | None = None,
    custom: Sequence[tuple[str, str]] = (),
) -> JsonObject:
    """`table` may hold the first rows only (`head`): `row_count` is then the file's.
    `reasons`: why each suggested column was pre-selected."""
    found = headers.guess(
        table.columns, FIELDS[kind], custom if kind is ImportObject.CONTACTS else ()
    )
    return {
        "columns": table.columns,
        "separator": table.separator,
        "row_count": len(table.records) if row_count is None else row_count,
        "rows": [dict(zip(table.columns, record, strict=True)) for record in table.records[:rows]],
        "suggested_mapping": {column: guess.field for column, guess in found.items()},
        "reasons": {column: guess.reason for column, guess in found.items()},
    }


def split_tags(cell: str) -> list[str]:
    """`buyer, vip|pre-approved; x` -> ["buyer", "vip", "pre-approved", "x"]."""
    for separator in TAG_SEPARATORS[1:]:
        cell = cell.replace(separator, TAG_SEPARATORS[0])
    return [tag.strip() for tag in cell.split(TAG_SEPARATORS[0]) if tag.strip()]


def _check_mapping(
    columns: Sequence[str], mapping: Mapping[str, str], kind: ImportObject
) -> list[tuple[int, str]]:
    """(column index, field) for each mapped column."""
    fields, prefix = FIELDS[kind], PREFIXES[kind]
    chosen: list[tuple[int, str]] = []
    taken: set[str] = set()
    for column, field in mapping.items():
        if column not in columns:
            raise MappingError(f"{column!r} is not a column of the file")
        if field in taken:
            raise MappingError(f"two columns are mapped to {field!r}")
        key = field.removeprefix(prefix)
        if field not in fields and not (field.startswith(prefix) and key.strip()):
            known = ", ".join(fields)
            raise MappingError(
                f"{column!r} is mapped to {field!r}, which is not one of {known} or {prefix}<key>"
            )
        taken.add(field)
        chosen.append((list(columns).index(column), field))
    return chosen


def mapper(
    columns: Sequence[str], mapping: Mapping[str, str], kind: ImportObject = ImportObject.CONTACTS
) -> Callable[[Sequence[str]], JsonObject]:
    """A row's cells (as CsvReader gives them) into the single create's body, columns
    left out of the mapping ignored. Raises MappingError for a bad mapping at once."""
    chosen = _check_mapping(columns, mapping, kind)
    prefix = PREFIXES[kind]
    nested = prefix.rstrip(".")

    def row_of(record: Sequence[str]) -> JsonObject:
        row: JsonObject = {}
        for index, field in chosen:
            cell = record[index].strip()
            if not cell:
                continue
            if field == "tags":
                row["tags"] = split_tags(cell)
            elif field == "stage":
                # our own stage in any case and spacing; another CRM's name stays as
                # found, for value_map (imports/headers.py's synonyms pre-fill it)
                stage = cell.upper().replace(" ", "_").replace("-", "_")
                row["stage"] = stage if stage in _STAGES else cell
            elif field.startswith(prefix):
                row.setdefault(nested, {})[field.removeprefix(prefix)] = cell
            else:
                row[field] = cell
        return row

    return row_of


def map_rows(
    table: CsvTable, mapping: Mapping[str, str], kind: ImportObject = ImportObject.CONTACTS
) -> list[JsonObject]:
    """Each row of a table as the single create's body (see `mapper`)."""
    row_of = mapper(table.columns, mapping, kind)
    return [row_of(record) for record in table.records]


def chunks(
    rows: Sequence[JsonObject], *, max_rows: int = MAX_ROWS, max_bytes: int | None = None
) -> Iterator[Chunk]:
    """The rows in runs of at most `max_rows`, and with `max_bytes` (the server's
    HOMEBASE_MAX_BODY_BYTES) of rows whose JSON stays within it, leaving room for the
    envelope. A single row larger than that is a chunk of its own (its import refuses
    it with 413, which names the limit)."""
    room = None if max_bytes is None else max_bytes - 200
    start, size = 0, 0
    current: list[JsonObject] = []
    for index, row in enumerate(rows):
        length = len(orjson.dumps(row)) + 1 if room is not None else 0
        full = len(current) >= max_rows or (room is not None and current and size + length > room)
        if full:
            yield Chunk(start, current)
            start, current, size = index, [], 0
        current.append(row)
        size += length
    if current:
        yield Chunk(start, current)


_STAGES = {stage.value for stage in ContactStage}
_TRUE = {"true", "yes", "y", "1"}
_FALSE = {"false", "no", "n", "0"}


# A number as CRM exports write amounts: thousands grouped by commas, three digits a
# group (`650,000`, `1,250.50`). `2,5` is not one: a decimal comma stays text, refused.
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def _number_text(cell: str) -> str:
    """The cell as float() reads it: a leading `$` and grouping commas dropped."""
    text = cell.strip()
    sign = text[:1] if text[:1] in ("+", "-") else ""
    body = text[len(sign) :].removeprefix("$")
    return sign + (body.replace(",", "") if _GROUPED.fullmatch(body) else body)


def _typed(kind: str, cell: str) -> Any:
    """A cell as the JSON value a custom field of this type takes; a cell that does not
    read as one stays text, for the import to refuse with the field's own message."""
    if kind == "number":
        text = _number_text(cell)
        try:
            number = float(text)
        except ValueError:
            return cell
        if number != number or number in (float("inf"), float("-inf")):
            return cell
        return int(number) if number.is_integer() and "." not in text else number
    if kind == "boolean":
        lowered = cell.lower()
        return True if lowered in _TRUE else False if lowered in _FALSE else cell
    if kind == "multi_select":
        return split_tags(cell)
    return cell


def type_row(row: JsonObject, types: Mapping[str, str]) -> None:
    """Turns the text cells of a row's mapped custom fields into their type's JSON values,
    in place: numbers (`500000`, `2.5`, `1,250.50`, `$650,000`), booleans (true/false,
    yes/no, 1/0), a multi_select's choices split as tags are. `types` is {key: field type}."""
    custom = row.get(CUSTOM_FIELDS.rstrip("."))
    if not custom:
        return
    for key, value in custom.items():
        kind = types.get(key)
        if kind is not None and isinstance(value, str):
            custom[key] = _typed(kind, value)


def type_custom_fields(rows: Sequence[JsonObject], types: Mapping[str, str]) -> None:
    """`type_row` for each row."""
    for row in rows:
        type_row(row, types)
