"""CSV files as old CRMs export them, turned into the rows of POST /v1/imports.

Pure functions, no HTTP and no database: the console's upload page (or a script) calls
them in turn, and each step gives the person something to look at before the next.

1. `parse(data)`: the file's bytes into a `CsvTable`: UTF-8 with or without a byte order
   mark, `,` or `;` as the separator (whichever the header line holds more of, outside
   quotes), quoted cells that span lines, a header row naming the columns. Bounded:
   MAX_COLUMNS columns, MAX_CELL_CHARS characters a cell, MAX_FILE_ROWS rows. A file it
   cannot read raises `CsvError`, whose message names the line.
2. `preview(table)`: the columns, the first rows as {column: cell}, the row count and a
   suggested mapping (from the column names: "E-mail" -> email, ...).
3. `map_rows(table, mapping, object)`: {column: field} into row objects. Fields are the
   single create's members (CONTACT_FIELDS, LEAD_FIELDS); `custom_fields.<key>` (contacts)
   goes into row["custom_fields"][key] and `context.<key>` (leads) into row["context"].
   An empty cell leaves the member out (a matched contact keeps its value), a `tags` cell
   is split on `,`, `;` or `|`. Values are not validated here: the import checks each row
   as the single create does, and its errors name the row's index.
4. `chunks(rows)`: the rows in imports of at most MAX_ROWS rows (and, given `max_bytes`,
   of a JSON body within it), each with the index of its first row, so an import's error
   at `index` is the file's row `start + index`, on line `table.lines[start + index]`.
"""

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from homebase.contacts.schemas import ContactCreate
from homebase.imports.schemas import MAX_ROWS, ImportObject

MAX_COLUMNS = 200
MAX_CELL_CHARS = 20_000  # a contact's notes
MAX_FILE_ROWS = 200_000  # 40 imports of MAX_ROWS
PREVIEW_ROWS = 10
SEPARATORS = (",", ";")
TAG_SEPARATORS = (",", ";", "|")
CUSTOM_FIELDS = "custom_fields."
CONTEXT = "context."

# Every member of a contact's create body but custom_fields, mapped by prefix instead: read
# from the schema, so a member it gains is mappable at once.
CONTACT_FIELDS = tuple(name for name in ContactCreate.model_fields if name != "custom_fields")
LEAD_FIELDS = ("phone", "source", "first_name", "last_name", "email", "source_ref")
PREFIXES = {ImportObject.CONTACTS: CUSTOM_FIELDS, ImportObject.LEADS: CONTEXT}
FIELDS = {ImportObject.CONTACTS: CONTACT_FIELDS, ImportObject.LEADS: LEAD_FIELDS}

# Column names old CRMs use, lower-cased with spaces, dashes and underscores removed.
_SYNONYMS = {
    "firstname": "first_name",
    "first": "first_name",
    "givenname": "first_name",
    "lastname": "last_name",
    "last": "last_name",
    "surname": "last_name",
    "familyname": "last_name",
    "email": "email",
    "emailaddress": "email",
    "mail": "email",
    "phone": "phone",
    "phonenumber": "phone",
    "mobile": "phone",
    "mobilephone": "phone",
    "cell": "phone",
    "cellphone": "phone",
    "telephone": "phone",
    "stage": "stage",
    "status": "stage",
    "source": "source",
    "leadsource": "source",
    "tags": "tags",
    "labels": "tags",
    "notes": "notes",
    "note": "notes",
    "comments": "notes",
    "sourceref": "source_ref",
    "reference": "source_ref",
    "externalid": "source_ref",
}


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
    lines: list[int]  # the line each row ends on, for messages ("row 17, line 19")
    separator: str


@dataclass(frozen=True)
class Chunk:
    start: int  # the index (in the file's rows) of the chunk's first row
    rows: list[dict[str, Any]]

    def body(
        self,
        kind: ImportObject,
        *,
        match_on: Sequence[str] | None = None,
        skip_routing: bool = False,
    ) -> dict[str, Any]:
        """The POST /v1/imports body for this chunk."""
        body: dict[str, Any] = {"object": kind.value, "rows": self.rows}
        if match_on is not None:
            body["match_on"] = list(match_on)
        if skip_routing:
            body["skip_routing"] = True
        return body


def _decode(data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")  # drops a byte order mark
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CsvError("the file is not UTF-8 text; export it as UTF-8 CSV", line) from None
    if "\x00" in text:
        raise CsvError("the file holds NUL characters; it is not a CSV text file")
    return text


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


def parse(data: bytes, *, max_rows: int = MAX_FILE_ROWS) -> CsvTable:
    text = _decode(data)
    if not text.strip():
        raise CsvError("the file is empty")
    separator = detect_separator(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    columns: list[str] | None = None
    records: list[list[str]] = []
    lines: list[int] = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue  # a blank line
            if columns is None:
                columns = _header(cells, line)
                continue
            if len(cells) > len(columns):
                raise CsvError(
                    f"{len(cells)} cells but the header has {len(columns)} columns "
                    "(a separator inside an unquoted cell?)",
                    line,
                )
            for number, cell in enumerate(cells, start=1):
                if len(cell) > MAX_CELL_CHARS:
                    raise CsvError(
                        f"the cell in column {number} holds {len(cell)} characters; "
                        f"at most {MAX_CELL_CHARS}",
                        line,
                    )
            if len(records) >= max_rows:
                raise CsvError(f"more than {max_rows} rows; split the file", line)
            # Exports often drop a row's trailing empty cells.
            records.append(cells + [""] * (len(columns) - len(cells)))
            lines.append(line)
    except csv.Error as error:
        raise CsvError(f"malformed CSV ({error})", reader.line_num) from None
    if columns is None:
        raise CsvError("the file is empty")
    return CsvTable(columns, records, lines, separator)


def _normalized(name: str) -> str:
    return "".join(char for char in name.lower() if char.isalnum())


def suggested_mapping(columns: Sequence[str], kind: ImportObject) -> dict[str, str]:
    """{column: field} for the columns whose names say which field they hold (each field
    once, the first column naming it)."""
    fields = FIELDS[kind]
    mapping: dict[str, str] = {}
    for column in columns:
        field = _SYNONYMS.get(_normalized(column))
        if field in fields and field not in mapping.values():
            mapping[column] = field
    return mapping


def preview(
    table: CsvTable, kind: ImportObject = ImportObject.CONTACTS, rows: int = PREVIEW_ROWS
) -> dict[str, Any]:
    return {
        "columns": table.columns,
        "separator": table.separator,
        "row_count": len(table.records),
        "rows": [dict(zip(table.columns, record, strict=True)) for record in table.records[:rows]],
        "suggested_mapping": suggested_mapping(table.columns, kind),
    }


def split_tags(cell: str) -> list[str]:
    """`buyer, vip|pre-approved; x` -> ["buyer", "vip", "pre-approved", "x"]."""
    for separator in TAG_SEPARATORS[1:]:
        cell = cell.replace(separator, TAG_SEPARATORS[0])
    return [tag.strip() for tag in cell.split(TAG_SEPARATORS[0]) if tag.strip()]


def _check_mapping(
    table: CsvTable, mapping: Mapping[str, str], kind: ImportObject
) -> list[tuple[int, str]]:
    """(column index, field) for each mapped column."""
    fields, prefix = FIELDS[kind], PREFIXES[kind]
    chosen: list[tuple[int, str]] = []
    taken: set[str] = set()
    for column, field in mapping.items():
        if column not in table.columns:
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
        chosen.append((table.columns.index(column), field))
    return chosen


def map_rows(
    table: CsvTable, mapping: Mapping[str, str], kind: ImportObject = ImportObject.CONTACTS
) -> list[dict[str, Any]]:
    """Each row as the single create's body (columns left out of the mapping are
    ignored). Raises MappingError for a bad mapping."""
    chosen = _check_mapping(table, mapping, kind)
    prefix = PREFIXES[kind]
    nested = prefix.rstrip(".")
    rows: list[dict[str, Any]] = []
    for record in table.records:
        row: dict[str, Any] = {}
        for index, field in chosen:
            cell = record[index].strip()
            if not cell:
                continue
            if field == "tags":
                row["tags"] = split_tags(cell)
            elif field == "stage":
                row["stage"] = cell.upper().replace(" ", "_").replace("-", "_")
            elif field.startswith(prefix):
                row.setdefault(nested, {})[field.removeprefix(prefix)] = cell
            else:
                row[field] = cell
        rows.append(row)
    return rows


def chunks(
    rows: Sequence[dict[str, Any]], *, max_rows: int = MAX_ROWS, max_bytes: int | None = None
) -> Iterator[Chunk]:
    """The rows in runs of at most `max_rows`, and with `max_bytes` (the server's
    HOMEBASE_MAX_BODY_BYTES) of rows whose JSON stays within it, leaving room for the
    envelope. A single row larger than that is a chunk of its own (its import refuses
    it with 413, which names the limit)."""
    room = None if max_bytes is None else max_bytes - 200
    start, size = 0, 0
    current: list[dict[str, Any]] = []
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


_TRUE = {"true", "yes", "y", "1"}
_FALSE = {"false", "no", "n", "0"}


def _typed(kind: str, cell: str) -> Any:
    """A cell as the JSON value a custom field of this type takes; a cell that does not
    read as one stays text, for the import to refuse with the field's own message."""
    if kind == "number":
        text = cell.replace(",", "") if "," in cell and "." in cell else cell
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


def type_custom_fields(rows: Sequence[dict[str, Any]], types: Mapping[str, str]) -> None:
    """Turns the text cells of mapped custom fields into their type's JSON values, in
    place: numbers (`500000`, `2.5`, `1,250.50`), booleans (true/false, yes/no, 1/0),
    a multi_select's choices split as tags are. `types` is {key: field type}."""
    for row in rows:
        custom = row.get(CUSTOM_FIELDS.rstrip("."))
        if not custom:
            continue
        for key, value in custom.items():
            kind = types.get(key)
            if kind is not None and isinstance(value, str):
                custom[key] = _typed(kind, value)
