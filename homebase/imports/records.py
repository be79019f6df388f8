"""An import as the code carries it: the `data_imports` and `import_row_errors` tables'
rows (models/data_import.py, import_error.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Any, NotRequired

from typing_extensions import TypedDict


class ImportOptions(TypedDict):
    match_on: list[str]  # ImportMatchKey values
    skip_routing: bool
    rows_file: NotRequired[str]  # the console's upload: the rows wait in this file


class ImportRecord(TypedDict):
    """An import as read (repository.SHOWN): every column but its rows."""

    id: str
    object: str  # an ImportObject value
    status: str  # an ImportStatus value
    options: ImportOptions
    row_count: int
    position: int  # rows processed, committed
    created_count: int
    updated_count: int
    unchanged_count: int
    failed_count: int
    credential_kind: str
    credential_id: str
    scopes: list[str]
    lease_token: str | None
    lease_expires_at: datetime | None
    attempts: int
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    updated_at: datetime


class NewImport(ImportRecord):
    """An import as written: with its rows (null when they wait in a rows file)."""

    payload: list[Any] | None  # the request's rows: free-form JSON objects, checked per row


class FieldErrorRecord(TypedDict):
    field: str
    message: str


class ImportErrorRecord(TypedDict):
    id: str
    import_id: str
    row_index: int
    errors: list[FieldErrorRecord]


class UnfinishedPayload(TypedDict):
    """What erasing reads of an unfinished import (repository.unfinished_payloads)."""

    id: str
    position: int
    payload: list[Any] | None  # the request's rows, as NewImport's
