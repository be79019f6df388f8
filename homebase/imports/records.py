"""An import as the code carries it: the `data_imports` and `import_row_errors` tables'
rows (models/data_import.py, import_error.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Any, NotRequired

from typing_extensions import TypedDict

from homebase.imports.schemas import ValueMaps


class ImportOptions(TypedDict):
    match_on: list[str]  # ImportMatchKey values
    skip_routing: bool
    first_touch: NotRequired[bool]  # leads: queue the AI's first texts (absent: false)
    rows_file: NotRequired[str]  # the console's upload: the rows wait in this file
    # {field: {value as found: value or null}}: JSON values as the request sent them
    value_map: NotRequired[ValueMaps]
    on_invalid_cell: NotRequired[str]  # an InvalidCell value; "refuse" when absent
    file_name: NotRequired[str]  # the uploaded file's name (the console's)
    upload_id: NotRequired[str]  # the console's upload, kept for the refused rows' CSV


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
    warnings_count: int
    unmatchable_count: int
    dry_run: bool
    refused_by_reason: dict[str, int]  # {"field: message": refused rows}
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


def reason(field: str, message: str) -> str:
    """An item as one text, `field: message`: a key of an import's `refused_by_reason`, a
    part of a refused row's `why` (refused_csv.py)."""
    return f"{field}: {message}"


class ImportErrorRecord(TypedDict):
    id: str
    import_id: str
    row_index: int
    line: int | None
    kind: str  # an ImportRowKind value
    errors: list[FieldErrorRecord]


class UnfinishedPayload(TypedDict):
    """What erasing reads of an unfinished import (repository.unfinished_payloads)."""

    id: str
    position: int
    payload: list[Any] | None  # the request's rows, as NewImport's
