"""The rows of an import started from a CSV upload, kept in a file of its own instead of
the job's `payload` (docs/imports-exports.md, "CSV import in the console").

A file is `imports/rows/<workspace>/<created>-<import id>.ndjson` under
HOMEBASE_STORAGE_DIR (shared by every instance and worker): one JSON object a line, the
row as POST /v1/imports would carry it. `<created>` is the submit's time in Unix seconds
on the service's clock, for the sweep of files no import owns.

- `split`: the console's submit writes the upload's rows, one at a time as the CSV
  reader hands them over, into files of at most MAX_ROWS rows, one per import it then
  creates (the import's `options.rows_file` names its file). Nothing of the file is held
  in memory, and the request's transaction only inserts the jobs.
- `RowsFile`: the worker reads the import's rows a batch at a time, at the import's
  `position`, the next batch while one is written (imports/jobs.py, `Running`). Once a
  batch is committed its lines are overwritten with spaces in place (`forget`, started
  at the commit; the byte offsets of the rows after it do not move), so the file holds
  only rows not yet written, as an erasure expects of an unfinished import's rows; a
  resumed import does the same for every row before its position first
  (`forget_before`). The file is deleted when the import finishes.
- `aged`: files older than MAX_AGE, for the worker's sweep (imports/jobs.py,
  `remove_orphaned_rows`), which deletes those whose import is not queued or running
  (a crash between the file's write and the import's commit, or after its last batch).

Every function here blocks (run it in a thread).
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from homebase.imports.schemas import MAX_ROWS
from homebase.kit.ids import new_id
from homebase.kit.links import resolve
from homebase.kit.wire import JsonObject

FOLDER = "imports/rows"
MAX_AGE = timedelta(hours=1)
SUFFIX = ".ndjson"
_NAME = re.compile(r"^(\d{1,12})-(imp_[0-9a-z]{1,36})\.ndjson$")
# Every byte but the line feed becomes a space: a forgotten row keeps its length.
_BLANK = bytes(byte if byte == 0x0A else 0x20 for byte in range(256))
_PIECE = 1 << 16


class RowsFileDamaged(RuntimeError):
    """The file holds fewer rows than its import counts (it was changed or cut short)."""

    def __init__(self, path: Path):
        super().__init__(str(path))
        self.path = path


@dataclass(frozen=True)
class Part:
    import_id: str
    name: str  # relative to HOMEBASE_STORAGE_DIR
    rows: int


def name(workspace_id: str, import_id: str, created: datetime) -> str:
    return f"{FOLDER}/{workspace_id}/{int(created.timestamp())}-{import_id}{SUFFIX}"


def path_of(root: Path, file_name: str) -> Path:
    path = resolve(root, file_name)
    if path is None or not file_name.startswith(FOLDER + "/"):
        raise ValueError(file_name)
    return path


def split(
    root: Path,
    workspace_id: str,
    now: datetime,
    rows: Iterable[Any],
    *,
    per_import: int = MAX_ROWS,
) -> list[Part]:
    """`rows` (each an `entry`) written into files of at most `per_import` rows, each
    named for a new import id. A failure (a row the reader refuses) removes every file
    written."""
    parts: list[Part] = []
    written: list[Path] = []
    current = None
    count = 0
    try:
        for row in rows:
            if current is None or count == per_import:
                if current is not None:
                    current.close()
                    parts[-1] = Part(parts[-1].import_id, parts[-1].name, count)
                import_id = new_id("imp")
                file_name = name(workspace_id, import_id, now)
                path = path_of(root, file_name)
                path.parent.mkdir(parents=True, exist_ok=True)
                written.append(path)
                current = path.open("wb")
                parts.append(Part(import_id, file_name, 0))
                count = 0
            current.write(orjson.dumps(row) + b"\n")
            count += 1
        if current is not None:
            current.close()
            parts[-1] = Part(parts[-1].import_id, parts[-1].name, count)
    except BaseException:
        if current is not None:
            current.close()
        remove_all(written)
        raise
    return parts


def entry(line: int, row: JsonObject) -> list[Any]:
    """A rows file's item: the CSV line the row starts on, and the row."""
    return [line, row]


def unpack(item: Any) -> tuple[int | None, Any]:
    """(line, row) of an item; a row written alone (by an earlier version) has no line."""
    if isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict):
        return item[0], item[1]
    return None, item


def remove_all(paths: Iterable[Path]) -> None:
    for path in paths:
        path.unlink(missing_ok=True)


def remove(root: Path, file_name: str) -> None:
    path_of(root, file_name).unlink(missing_ok=True)


@dataclass
class Batch:
    """Rows read from a rows file: each one's CSV line, the rows, and their bytes' span."""

    lines: list[int | None]
    rows: list[Any]
    span: tuple[int, int]


class RowsFile:
    """An import's rows file, read a batch at a time. It remembers where the last read
    ended, so the next batch starts there without reading the rows before it again."""

    def __init__(self, path: Path):
        self.path = path
        self._next = 0  # the row at _offset
        self._offset = 0

    def exists(self) -> bool:
        return self.path.is_file()

    def _seek(self, file: Any, start: int) -> None:
        if start < self._next:
            self._next, self._offset = 0, 0
        file.seek(self._offset)
        for _ in range(start - self._next):
            if not file.readline():
                raise RowsFileDamaged(self.path)
        self._next, self._offset = start, file.tell()

    def read_lines(self, start: int, count: int) -> "Batch":
        """Rows `start` to `start + count` (fewer only at the end of the file), each with
        the CSV line it starts on (see `entry`), and where they are in the file (for
        `forget`)."""
        batch = Batch([], [], (0, 0))
        with self.path.open("rb") as file:
            self._seek(file, start)
            for _ in range(count):
                text = file.readline()
                if not text:
                    break
                line, row = unpack(orjson.loads(text))
                batch.lines.append(line)
                batch.rows.append(row)
            end = file.tell()
        batch.span = (self._offset, end)
        self._next, self._offset = start + len(batch.rows), end
        return batch

    def forget(self, span: tuple[int, int]) -> None:
        """Overwrites a batch read (now written) with spaces: `span`, its `Batch.span`."""
        self._blank(*span)

    def forget_before(self, position: int) -> None:
        """Overwrites every row before `position` (written by an earlier claim)."""
        with self.path.open("rb") as file:
            self._seek(file, position)
        self._blank(0, self._offset)

    def _blank(self, start: int, end: int) -> None:
        with self.path.open("r+b") as file:
            while start < end:
                file.seek(start)
                piece = file.read(min(_PIECE, end - start))
                if not piece:
                    return
                file.seek(start)
                file.write(piece.translate(_BLANK))
                start += len(piece)


def aged(root: Path, now: datetime) -> list[tuple[Path, str, str]]:
    """(path, workspace id, import id) of each rows file older than MAX_AGE."""
    base = resolve(root, FOLDER)
    if base is None or not base.is_dir():
        return []
    cutoff = (now - MAX_AGE).timestamp()
    found = []
    for path in base.glob(f"*/*{SUFFIX}"):
        match = _NAME.match(path.name)
        if match is not None and int(match.group(1)) <= cutoff:
            found.append((path, path.parent.name, match.group(2)))
    return found
