"""CSV files uploaded in the console, kept between the upload and the mapping's submit
(docs/imports-exports.md, "CSV import in the console").

A file is `imports/uploads/<workspace>/<user>/<created>-<token>.csv` under
HOMEBASE_STORAGE_DIR (shared by every instance, so the submit may reach another one than
the upload did): `<created>` is the upload's time in Unix seconds (the sweep reads a
file's age from its name, on the service's clock, never from the file system's) and
`<token>` 256 random bits, so the upload id the page carries cannot be guessed, and the
workspace and member in the path tie it to whoever uploaded it: another member's id
names no file of theirs.

- `take` renames the file before the imports are written (one rename: of two submits
  of the same page, one wins, so the rows are not imported twice), `give_back` undoes
  that when the write failed, and `remove` deletes it once the imports are committed.
- `remove_abandoned` (run by the worker's exports.expire job, every round) deletes every
  upload older than MAX_AGE, taken or not: a file holding people's data lives at most
  an hour whatever became of its page.

Every function here blocks (run it in a thread).
"""

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from homebase.kit.links import resolve

MAX_AGE = timedelta(hours=1)
FOLDER = "imports/uploads"
TAKEN = ".taken"
_ID = re.compile(r"^(\d{1,12})-([A-Za-z0-9_-]{43})$")


@dataclass(frozen=True)
class Upload:
    workspace_id: str
    user_id: str
    upload_id: str

    @property
    def name(self) -> str:
        return f"{FOLDER}/{self.workspace_id}/{self.user_id}/{self.upload_id}.csv"

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


def save(root: Path, upload: Upload, data: bytes) -> None:
    path = resolve(root, upload.name)
    if path is None:
        raise ValueError(upload.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(data)
    partial.replace(path)  # a name without .part is always the whole file


def read(root: Path, upload: Upload) -> bytes | None:
    path = resolve(root, upload.name)
    try:
        return path.read_bytes() if path is not None else None
    except FileNotFoundError:
        return None


def take(root: Path, upload: Upload) -> bytes | None:
    """The file's bytes, renamed out of reach of any other submit; None when it is gone
    (imported, abandoned and swept, or taken by a submit a moment ago)."""
    path = resolve(root, upload.name)
    if path is None:
        return None
    taken = path.with_name(path.name + TAKEN)
    try:
        path.rename(taken)
    except FileNotFoundError:
        return None
    return taken.read_bytes()


def give_back(root: Path, upload: Upload) -> None:
    path = resolve(root, upload.name)
    if path is not None:
        path.with_name(path.name + TAKEN).rename(path)


def remove(root: Path, upload: Upload) -> None:
    path = resolve(root, upload.name)
    if path is not None:
        for candidate in (path, path.with_name(path.name + TAKEN)):
            candidate.unlink(missing_ok=True)


def remove_abandoned(root: Path, now: datetime) -> int:
    """Deletes the uploads older than MAX_AGE (whole, partial or taken); returns how many."""
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
