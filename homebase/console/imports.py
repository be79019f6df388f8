"""CSV import in the console: upload a file, map its columns, start the imports; the
imports list (progress, counts) and each import's refused rows.

The file is never held whole in memory. The form parser spools it to a temporary file;
imports/uploads.py copies it to HOMEBASE_STORAGE_DIR a piece at a time (kept at most an
hour, between the upload and the mapping's submit), and imports/csv_rows.py reads it one
row at a time: once through at the upload (its errors, its row count), its first rows
for the mapping page. The submit maps the rows one at a time into the rows files of one
import per 5,000 rows (imports/row_files.py) and creates the imports through
imports/service.py with the member's principal; the worker runs them one at a time per
workspace, reading each file a batch at a time. The upload is the one route whose body
may pass HOMEBASE_MAX_BODY_BYTES: `upload_allowance` gives http/body_limit.py its limit,
HOMEBASE_IMPORT_MAX_BYTES, and the page a larger file gets.
"""

import asyncio
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from fastapi import APIRouter
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from homebase.config import Settings
from homebase.console.common import (
    field,
    keyset_page,
    member_page,
    member_session,
    posted_form,
    refuse_nul,
    see_other,
    signed_in,
)
from homebase.console.sessions import CSRF_FIELD, Member, check_csrf
from homebase.console.webhooks import member_principal
from homebase.custom_fields import repository as custom_fields
from homebase.custom_fields.records import CustomFieldRecord
from homebase.http.body_limit import Allowance
from homebase.http.pages import ConsolePageError, error_page
from homebase.imports import csv_rows, repository, row_files, service, uploads
from homebase.imports.records import ImportRecord
from homebase.imports.schemas import MAX_ROWS, ImportObject, ImportStatus
from homebase.kit.errors import ApiError
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
PATH = "/console/imports"
UPLOAD_PATH = PATH + "/new"
# What the upload's form holds besides the file: the boundary lines, the part headers, the
# CSRF token and the object. The file itself is limited to HOMEBASE_IMPORT_MAX_BYTES.
FORM_ROOM = 16 * 1024
REFRESH_SECONDS = 3
MiB = 1 << 20
OBJECTS = [kind.value for kind in ImportObject]
UNFINISHED = (ImportStatus.QUEUED.value, ImportStatus.RUNNING.value)


def _too_large(limit_bytes: int) -> ConsolePageError:
    size = f"{limit_bytes / MiB:g} MiB" if limit_bytes >= MiB else f"{limit_bytes} bytes"
    return ConsolePageError(
        413,
        "File too large",
        f"The file is larger than {size}, the most one upload takes "
        "(HOMEBASE_IMPORT_MAX_BYTES). Split it into smaller files and upload each.",
    )


def upload_allowance(settings: Settings) -> Allowance:
    """The upload route's body limit, for http/body_limit.py: the file's limit plus the
    form's few fields; a larger body is answered with the console's 413 page."""
    return Allowance(
        method="POST",
        path=UPLOAD_PATH,
        limit=settings.import_max_bytes + FORM_ROOM,
        refuse=lambda _limit: error_page(_too_large(settings.import_max_bytes)),
    )


def _upload(member: Member, upload_id: str) -> uploads.Upload:
    if not uploads.valid_id(upload_id):
        raise _gone()
    return uploads.Upload(member.workspace_id, member.user_id, upload_id)


def _gone() -> ConsolePageError:
    return ConsolePageError(
        404,
        "Upload not found",
        "This upload is no longer here: it was imported already, or it was left for more "
        "than an hour. Upload the file again.",
    )


def _object(value: str | None) -> ImportObject:
    try:
        return ImportObject(value or "")
    except ValueError:
        raise ConsolePageError(400, "Invalid input", "object: must be contacts or leads") from None


# -- the imports list and one import ---------------------------------------------------


@router.get(PATH)
async def list_imports(request: Request, started: str | None = None) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        rows, older = await keyset_page(
            request,
            session,
            repository.listing(session, OBJECTS).page,
        )
    notice = None
    if started and started.isdigit():
        notice = f"Started {started} import{'s' if started != '1' else ''}."
    return member_page(
        request,
        member,
        "console/imports.html",
        notice=notice,
        imports=[_shown(row) for row in rows],
        older=older,
        refresh=REFRESH_SECONDS if any(row["status"] in UNFINISHED for row in rows) else None,
    )


def _shown(row: ImportRecord | dict[str, Any]) -> dict[str, Any]:  # a template's values
    rows = row["row_count"]
    return {**row, "percent": int(row["position"] * 100 / rows) if rows else 100}


@router.get(UPLOAD_PATH)
async def upload_form(request: Request) -> Response:
    member = await signed_in(request)
    return _upload_page(request, member, ImportObject.CONTACTS)


def _upload_page(
    request: Request,
    member: Member,
    kind: ImportObject,
    errors: list[str] | None = None,
    status: int = 200,
) -> Response:
    settings = get_runtime(request).settings
    return member_page(
        request,
        member,
        "console/import_upload.html",
        status,
        objects=OBJECTS,
        chosen=kind.value,
        errors=errors or [],
        max_mib=f"{settings.import_max_bytes / MiB:g}",
    )


@router.get(PATH + "/{import_id}")
async def import_page(request: Request, import_id: str) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        try:
            job = await service.get_or_404(session, member_principal(member), import_id=import_id)
        except ApiError as missing:
            raise ConsolePageError(missing.status, "Not found", missing.message) from None
        rows, older = await keyset_page(
            request,
            session,
            repository.errors_listing(session, import_id).page,
        )
    return member_page(
        request,
        member,
        "console/import.html",
        job=_shown(job),
        refused=rows,
        older=older,
        refresh=REFRESH_SECONDS if job["status"] in UNFINISHED else None,
    )


# -- upload ------------------------------------------------------------------------------


async def _upload_form(request: Request, member: Member) -> FormData:
    """The multipart form: one file at most, a few fields; CSRF checked before the file
    is looked at."""
    try:
        form = await request.form(max_files=1, max_fields=8)
    except HTTPException as refused:
        raise ConsolePageError(400, "Invalid upload", str(refused.detail)) from None
    value = form.get(CSRF_FIELD)
    check_csrf(request, member, value if isinstance(value, str) else None)
    refuse_nul(form)
    return form


@router.post(UPLOAD_PATH)
async def upload(request: Request) -> Response:
    member = await signed_in(request)
    form = await _upload_form(request, member)
    try:
        kind = _object(field(form, "object"))
        file = form.get("file")
        if not isinstance(file, UploadFile) or not file.filename:
            return _upload_page(request, member, kind, ["file: choose a CSV file"], 400)
        runtime = get_runtime(request)
        limit = runtime.settings.import_max_bytes
        made = _upload(member, uploads.new_id(runtime.clock()))
        try:
            # Copied and read a piece at a time, off the event loop.
            await asyncio.to_thread(
                uploads.save, runtime.settings.storage_dir, made, file.file, limit, _row_count
            )
        except uploads.TooLarge:
            raise _too_large(limit) from None
        except csv_rows.CsvError as unreadable:
            return _upload_page(request, member, kind, [f"file: {unreadable}"], 400)
    finally:
        await form.close()  # the parser's temporary file, at once
    return see_other(f"{PATH}/uploads/{made.upload_id}?object={kind.value}")


def _row_count(saved: IO[bytes]) -> int:
    """The upload's check: the file read through, one row at a time; its row count."""
    rows = csv_rows.scan(saved).rows
    if not rows:
        raise csv_rows.CsvError("a header row but no rows")
    return rows


# -- mapping -----------------------------------------------------------------------------


def _targets(kind: ImportObject, custom: list[CustomFieldRecord]) -> list[tuple[str, str]]:
    """(value, label) of every field a column may go to, "ignore" first."""
    options = [("", "ignore")]
    options += [(name, name) for name in csv_rows.FIELDS[kind]]
    if kind is ImportObject.CONTACTS:
        options += [
            (name, f"{row['label']} ({name})")
            for row in custom
            for name in [csv_rows.CUSTOM_FIELDS + row["key"]]
        ]
    return options


def _read_head(path: Path) -> csv_rows.CsvTable:
    with path.open("rb") as file:
        return csv_rows.head(file)


async def _head(request: Request, member: Member, upload_id: str) -> tuple[csv_rows.CsvTable, int]:
    """The upload's columns and first rows (the file is not read further), and its row
    count as the upload found it."""
    runtime = get_runtime(request)
    found = _upload(member, upload_id)
    if uploads.expired(found, runtime.clock()):
        raise _gone()
    root = runtime.settings.storage_dir
    path = await asyncio.to_thread(uploads.stored, root, found)
    rows = await asyncio.to_thread(uploads.rows, root, found)
    if path is None or rows is None:
        raise _gone()
    try:
        return await asyncio.to_thread(_read_head, path), rows
    except (FileNotFoundError, csv_rows.CsvError):  # taken a moment ago, or changed
        raise _gone() from None


async def _mapping_page(
    request: Request,
    member: Member,
    upload_id: str,
    kind: ImportObject,
    table: csv_rows.CsvTable,
    row_count: int,
    *,
    chosen: dict[str, str] | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> Response:
    async with member_session(request, member) as session:
        custom = await custom_fields.live(session, ImportObject.CONTACTS.value)
    shown = csv_rows.preview(table, kind, row_count=row_count)
    mapping = chosen if chosen is not None else shown["suggested_mapping"]
    return member_page(
        request,
        member,
        "console/import_mapping.html",
        status,
        upload_id=upload_id,
        kind=kind.value,
        preview=shown,
        columns=list(enumerate(table.columns)),
        mapping=mapping,
        targets=_targets(kind, custom),
        errors=errors or [],
        imports=-(-row_count // MAX_ROWS),
    )


@router.get(PATH + "/uploads/{upload_id}")
async def mapping_form(request: Request, upload_id: str, object: str | None = None) -> Response:
    member = await signed_in(request)
    kind = _object(object)
    table, rows = await _head(request, member, upload_id)
    return await _mapping_page(request, member, upload_id, kind, table, rows)


def _chosen(form: FormData, columns: list[str]) -> dict[str, str]:
    """{column: field} from the form's `column_<n>` selects (an empty one: ignored)."""
    chosen = {column: field(form, f"column_{n}") for n, column in enumerate(columns)}
    return {column: target for column, target in chosen.items() if target}


def _check(mapping: dict[str, str], allowed: set[str]) -> None:
    for column, target in mapping.items():
        if target not in allowed:
            raise csv_rows.MappingError(f"{column!r} is mapped to {target!r}, which is not a field")
    if not mapping:
        raise csv_rows.MappingError("map at least one column to a field")


def _split(
    root: Path,
    source: Path,
    member: Member,
    now: datetime,
    chosen: dict[str, str],
    kind: ImportObject,
    types: Mapping[str, str],
) -> list[row_files.Part]:
    """The upload's rows, mapped one at a time, into the rows files of its imports."""

    def rows() -> Iterator[dict[str, Any]]:
        with source.open("rb") as file:
            reader = csv_rows.CsvReader(file)
            row_of = csv_rows.mapper(reader.columns, chosen, kind)
            for _line, cells in reader:
                row = row_of(cells)
                csv_rows.type_row(row, types)
                yield row

    return row_files.split(root, member.workspace_id, now, rows())


@router.post(PATH + "/uploads/{upload_id}")
async def start_imports(request: Request, upload_id: str) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    kind = _object(field(form, "object"))
    runtime = get_runtime(request)
    root = runtime.settings.storage_dir
    table, row_count = await _head(request, member, upload_id)
    async with member_session(request, member) as session:
        custom = await custom_fields.live(session, ImportObject.CONTACTS.value)
    allowed = {value for value, _label in _targets(kind, custom) if value}
    chosen = _chosen(form, table.columns)
    types = {row["key"]: row["type"] for row in custom}
    try:
        _check(chosen, allowed)
        csv_rows.mapper(table.columns, chosen, kind)  # refuses a bad mapping before any work
    except csv_rows.MappingError as wrong:
        return await _mapping_page(
            request,
            member,
            upload_id,
            kind,
            table,
            row_count,
            chosen=chosen,
            errors=[str(wrong)],
            status=400,
        )
    found = _upload(member, upload_id)
    # Taken before the write: a second submit of the same page finds nothing to import.
    taken = await asyncio.to_thread(uploads.take, root, found)
    if taken is None:
        raise _gone()
    parts: list[row_files.Part] = []
    principal = member_principal(member)
    try:
        # Up to 200,000 rows, mapped one at a time into files, off the event loop; the
        # transaction then only inserts the imports.
        parts = await asyncio.to_thread(
            _split, root, taken, member, runtime.clock(), chosen, kind, types
        )
        async with member_session(request, member, write=True) as session:
            for part in parts:
                await service.create_file_import(session, principal, kind=kind, part=part)
    except (ApiError, csv_rows.CsvError) as refused:
        await asyncio.to_thread(_undo, root, found, parts)
        errors = [refused.message if isinstance(refused, ApiError) else f"file: {refused}"]
        return await _mapping_page(
            request,
            member,
            upload_id,
            kind,
            table,
            row_count,
            chosen=chosen,
            errors=errors,
            status=400,
        )
    except BaseException:
        await asyncio.to_thread(_undo, root, found, parts)
        raise
    await asyncio.to_thread(uploads.remove, root, found)
    return see_other(f"{PATH}?started={len(parts)}")


def _undo(root: Path, found: uploads.Upload, parts: list[row_files.Part]) -> None:
    """A submit that failed: the upload is there again for another try, no rows file is
    left behind."""
    uploads.give_back(root, found)
    row_files.remove_all(row_files.path_of(root, part.name) for part in parts)
