"""Export files: where they live, and writing them a batch at a time.

A file is `exports/<workspace>/<export id>.<lease token>.<ndjson|csv>` under
HOMEBASE_STORAGE_DIR, written first as the same name plus `.part` and renamed when whole:
a name without `.part` is always a complete file, and the token in it keeps a run that
lost its lease from ever renaming onto the file of the run that took over.

Formats (docs/imports-exports.md):
- ndjson: one JSON object per line, each exactly the list's item for the credential
  (fields applied), encoded by orjson as the list's response is.
- csv: RFC 4180 (comma, CRLF, quotes doubled), UTF-8 without a byte order mark; a header
  of the selected members in the item's order; null as an empty cell, booleans
  true/false, numbers as they are, lists and objects (tags, custom fields) as their JSON
  text. A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return, which a
  spreadsheet would read as a formula, is prefixed with a single quote (OWASP's CSV
  injection rule); so is a phone number's leading `+`.
"""

import csv
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import orjson

from homebase.kit.links import resolve

MEDIA_TYPES = {"ndjson": "application/x-ndjson", "csv": "text/csv; charset=utf-8"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PART = ".part"

Row = dict[str, Any]


def folder(workspace_id: str) -> str:
    return f"exports/{workspace_id}"


def final_name(workspace_id: str, export_id: str, token: str, format: str) -> str:
    return f"{folder(workspace_id)}/{export_id}.{token}.{format}"


def path_of(root: Path, name: str) -> Path | None:
    return resolve(root, name)


def remove(root: Path, name: str) -> None:
    """Removes a stored file; one already gone is fine."""
    path = resolve(root, name)
    if path is not None:
        path.unlink(missing_ok=True)


def remove_runs(root: Path, workspace_id: str, export_id: str, *, finished: bool = False) -> None:
    """The files earlier runs of this export left: the partial file of a run that died
    (a new run starts from scratch), and once the export is finished for good
    (`finished`), any whole file whose run died before recording it."""
    base = resolve(root, folder(workspace_id))
    if base is None or not base.is_dir():
        return
    for path in base.glob(f"{export_id}.*"):
        if finished or path.name.endswith(PART):
            path.unlink(missing_ok=True)


def cell(value: Any) -> Any:
    """One CSV cell (see the module's docstring)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value
    return orjson.dumps(value).decode()  # a list, an object, or JSON embedded as stored


class Writer:
    """Appends rendered rows to an open file; every call is blocking (run it in a thread)."""

    def __init__(self, path: Path, format: str, columns: tuple[str, ...]):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.format = format
        self.columns = columns
        self.rows = 0
        self._file: IO[Any]
        if format == "csv":
            self._file = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115  # closed by close()
            self._csv = csv.writer(self._file, lineterminator="\r\n")
            self._csv.writerow(columns)
        else:
            self._file = open(path, "wb")  # noqa: SIM115  # closed by close()

    def write(self, rows: Iterable[Row], render: Callable[[Row], Mapping[str, Any]]) -> None:
        if self.format == "csv":
            columns = self.columns
            lines = [[cell(item.get(name)) for name in columns] for item in map(render, rows)]
            self._csv.writerows(lines)
        else:
            dumps, newline = orjson.dumps, orjson.OPT_APPEND_NEWLINE
            lines_bytes = [dumps(render(row), option=newline) for row in rows]
            self._file.write(b"".join(lines_bytes))
            self.rows += len(lines_bytes)
            return
        self.rows += len(lines)

    def close(self) -> None:
        self._file.flush()
        self._file.close()
