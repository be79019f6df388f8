"""CSV files uploaded in the console, kept 24 hours from the upload: for the mapping, a
dry run, the start, and the refused rows' CSV after it (docs/imports-exports.md, "CSV
import in the console").

A file is `imports/uploads/<workspace>/<user>/<created>-<token>.csv` under
HOMEBASE_STORAGE_DIR (shared by every instance, so the submit may reach another one than
the upload did): `<created>` is the upload's time in Unix seconds (the sweep reads a
file's age from its name, on the service's clock, never from the file system's) and
`<token>` 256 random bits, so the upload id the page carries cannot be guessed, and the
workspace and member in the path tie it to whoever uploaded it: another member's id
names no file of theirs.

- `save` copies the uploaded file there a piece at a time (never held whole: the form
  parser spooled it to a temporary file), refusing it past the size limit (TooLarge),
  then has it read through once by the caller's check (the CSV reader, one row at a
  time), and records what the check found beside it (`<id>.json`: the row count, each
  column's distinct values, the file's name), so the mapping page reads the file's
  first rows only.
- `take` renames the file before the imports are written (one rename: of two submits
  of the same page, one wins, so the rows are not imported twice), `give_back` undoes
  that when the write failed; the taken file stays (`taken_file`) for the refused rows'
  CSV, and `remove` deletes it.
- `remove_abandoned` (run by the worker's exports.expire job, every round) deletes every
  upload older than MAX_AGE, taken or not: a file holding people's data lives at most
  24 hours whatever became of its page.

Every function here blocks (run it in a thread).
"""

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, NotRequired, cast

import orjson
from typing_extensions import TypedDict

from homebase.kit.links import resolve

# Between the upload and the start, and after it: the refused rows' CSV is built from the
# upload on request while it lives (docs/imports-exports.md, "Refused rows as a CSV").
MAX_AGE = timedelta(hours=24)
FOLDER = "imports/uploads"
TAKEN = ".taken"
PARTIAL = ".part"
COPY_BYTES = 1 << 16  # a piece of the copy
_ID = re.compile(r"^(\d{1,12})-([A-Za-z0-9_-]{43})$")


class UploadSummary(TypedDict):
    """What the upload's check found, kept beside the file (`<id>.json`)."""

    rows: int
    values: NotRequired[dict[str, dict[str, int]]]  # column -> {distinct value: rows}
    name: NotRequired[str]  # the file's name as uploaded


class TooLarge(ValueError):
    """The file is larger than the limit it was saved with."""


@dataclass(frozen=True)
class Upload:
    workspace_id: str
    user_id: str
    upload_id: str

    @property
    def name(self) -> str:
        return f"{FOLDER}/{self.workspace_id}/{self.user_id}/{self.upload_id}.csv"

    @property
    def summary_name(self) -> str:
        return f"{FOLDER}/{self.workspace_id}/{self.user_id}/{self.upload_id}.json"

    def created(self) -> datetime:
        match = _ID.match(self.upload_id)
        assert match is not None  # upload_id() let only a valid id through
        return datetime.fromtimestamp(int(match.group(1)), tz=UTC)


def new_id(now: datetime) -> str:
    return f"{int(now.timestamp())}-{secrets.token_urlsafe(32)}"


def valid_id(value: str) -> bool:
    return _ID.match(value) is not None


def expired(upload: Upload, now: datetime) -> bool:
    return upload.created() + MAX_AGE <= now


def _path(root: Path, name: str) -> Path:
    path = resolve(root, name)
    if path is None:
        raise ValueError(name)
    return path


def save(
    root: Path,
    upload: Upload,
    source: IO[bytes],
    limit: int,
    check: Callable[[IO[bytes]], "UploadSummary"],
) -> int:
    """Copies `source` (from its start) to the upload's file a piece at a time: TooLarge
    past `limit` bytes; then `check(file)` reads it through and returns what it found
    (its `rows`, the row count, and whatever the mapping page reads: kept beside the
    file), or raises. Nothing is left behind by a refused file. Returns the row count."""
    path = _path(root, upload.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + PARTIAL)
    summary = _path(root, upload.summary_name)
    try:
        source.seek(0)
        with partial.open("wb") as copy:
            size = 0
            while piece := source.read(COPY_BYTES):
                size += len(piece)
                if size > limit:
                    raise TooLarge(limit)
                copy.write(piece)
        with partial.open("rb") as saved:
            found = check(saved)
        rows = int(found["rows"])
        summary.write_bytes(orjson.dumps(found))
        partial.replace(path)  # a name without .part is always the whole, checked file
    except BaseException:
        partial.unlink(missing_ok=True)
        summary.unlink(missing_ok=True)
        raise
    return rows


def stored(root: Path, upload: Upload) -> Path | None:
    """The uploaded file, while it is there and not taken."""
    found = resolve(root, upload.name)
    return found if found is not None and found.is_file() else None


def rows(root: Path, upload: Upload) -> int | None:
    """The row count `save` recorded, or None when the upload is gone."""
    found = resolve(root, upload.summary_name)
    try:
        return int(orjson.loads(found.read_bytes())["rows"]) if found is not None else None
    except (FileNotFoundError, orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return None


def summary(root: Path, upload: Upload) -> "UploadSummary | None":
    """What `save`'s check found (the JSON it returned), or None when the upload is gone."""
    found = resolve(root, upload.summary_name)
    try:
        data = orjson.loads(found.read_bytes()) if found is not None else None
    except (FileNotFoundError, orjson.JSONDecodeError):
        return None
    # written by save from its check's UploadSummary
    return cast("UploadSummary", data) if isinstance(data, dict) else None


def taken_file(root: Path, upload: Upload) -> Path | None:
    """The file of an upload whose imports started (taken), while it lives."""
    path = resolve(root, upload.name)
    if path is None:
        return None
    taken = path.with_name(path.name + TAKEN)
    return taken if taken.is_file() else None


def take(root: Path, upload: Upload) -> Path | None:
    """The file renamed out of reach of any other submit (its new path); None when it is
    gone (imported, abandoned and swept, or taken by a submit a moment ago)."""
    path = resolve(root, upload.name)
    if path is None:
        return None
    taken = path.with_name(path.name + TAKEN)
    try:
        path.rename(taken)
    except FileNotFoundError:
        return None
    return taken


def give_back(root: Path, upload: Upload) -> None:
    path = resolve(root, upload.name)
    if path is not None:
        path.with_name(path.name + TAKEN).rename(path)


def remove(root: Path, upload: Upload) -> None:
    path = resolve(root, upload.name)
    summary = resolve(root, upload.summary_name)
    if path is not None:
        for candidate in (path, path.with_name(path.name + TAKEN), summary):
            if candidate is not None:
                candidate.unlink(missing_ok=True)


def remove_abandoned(root: Path, now: datetime) -> int:
    """Deletes the uploads older than MAX_AGE (whole, partial or taken, and their row
    counts); returns how many files."""
    base = resolve(root, FOLDER)
    if base is None or not base.is_dir():
        return 0
    cutoff = (now - MAX_AGE).timestamp()
    removed = 0
    for path in base.glob("*/*/*"):
        match = _ID.match(path.name.split(".", 1)[0])
        if match is None or int(match.group(1)) > cutoff:
            continue
        path.unlink(missing_ok=True)
        removed += 1
    return removed
