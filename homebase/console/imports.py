"""CSV import in the console: upload a file, map its columns, start the imports; the
imports list (progress, counts) and each import's refused rows.

The file is read by imports/csv_rows.py and kept between the upload and the mapping's
submit by imports/uploads.py (HOMEBASE_STORAGE_DIR, at most an hour). The submit creates
one import per 5,000 rows through imports/service.py with the member's principal, as
POST /v1/imports would; the worker runs them one at a time per workspace. The upload is
the one route whose body may pass HOMEBASE_MAX_BODY_BYTES: `upload_allowance` gives
http/body_limit.py its limit, HOMEBASE_IMPORT_MAX_BYTES, and the page a larger file gets.
"""

import asyncio
from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
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
from homebase.console.pages import ConsolePageError, error_page
from homebase.console.sessions import CSRF_FIELD, Member, check_csrf
from homebase.console.webhooks import member_principal
from homebase.custom_fields import repository as custom_fields
from homebase.http.body_limit import Allowance
from homebase.imports import csv_rows, repository, service, uploads
from homebase.imports.schemas import MAX_ROWS, ImportCreate, ImportObject, ImportStatus
from homebase.kit.errors import ApiError
from homebase.kit.validation import field_errors
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
            lambda after, limit: repository.list_statement(
                session, OBJECTS, after_id=after, limit=limit
            ),
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


def _shown(row: dict[str, Any]) -> dict[str, Any]:
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
            job = await service.get_or_404(session, member_principal(member), import_id)
        except ApiError as missing:
            raise ConsolePageError(missing.status, "Not found", missing.message) from None
        rows, older = await keyset_page(
            request,
            session,
            lambda after, limit: repository.errors_statement(
                session, import_id, after_id=after, limit=limit
            ),
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
    kind = _object(field(form, "object"))
    file = form.get("file")
    if not isinstance(file, UploadFile) or not file.filename:
        return _upload_page(request, member, kind, ["file: choose a CSV file"], 400)
    runtime = get_runtime(request)
    limit = runtime.settings.import_max_bytes
    try:
        data = await file.read(limit + 1)
    finally:
        await form.close()  # the parser's temporary file, at once
    if len(data) > limit:
        raise _too_large(limit)
    try:
        # Reading a large file takes a while: off the event loop.
        table = await asyncio.to_thread(csv_rows.parse, data)
    except csv_rows.CsvError as unreadable:
        return _upload_page(request, member, kind, [f"file: {unreadable}"], 400)
    if not table.records:
        return _upload_page(request, member, kind, ["file: a header row but no rows"], 400)
    made = _upload(member, uploads.new_id(runtime.clock()))
    await asyncio.to_thread(uploads.save, runtime.settings.storage_dir, made, data)
    return see_other(f"{PATH}/uploads/{made.upload_id}?object={kind.value}")


# -- mapping -----------------------------------------------------------------------------


def _targets(kind: ImportObject, custom: list[dict[str, Any]]) -> list[tuple[str, str]]:
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


async def _table(request: Request, member: Member, upload_id: str) -> csv_rows.CsvTable:
    runtime = get_runtime(request)
    found = _upload(member, upload_id)
    if uploads.expired(found, runtime.clock()):
        raise _gone()
    data = await asyncio.to_thread(uploads.read, runtime.settings.storage_dir, found)
    if data is None:
        raise _gone()
    return await asyncio.to_thread(csv_rows.parse, data)


async def _mapping_page(
    request: Request,
    member: Member,
    upload_id: str,
    kind: ImportObject,
    table: csv_rows.CsvTable,
    *,
    chosen: dict[str, str] | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> Response:
    async with member_session(request, member) as session:
        custom = await custom_fields.live(session, ImportObject.CONTACTS.value)
    shown = csv_rows.preview(table, kind)
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
        imports=-(-len(table.records) // MAX_ROWS),
    )


@router.get(PATH + "/uploads/{upload_id}")
async def mapping_form(request: Request, upload_id: str, object: str | None = None) -> Response:
    member = await signed_in(request)
    kind = _object(object)
    table = await _table(request, member, upload_id)
    return await _mapping_page(request, member, upload_id, kind, table)


def _chosen(form: FormData, table: csv_rows.CsvTable) -> dict[str, str]:
    """{column: field} from the form's `column_<n>` selects (an empty one: ignored)."""
    chosen = {column: field(form, f"column_{n}") for n, column in enumerate(table.columns)}
    return {column: target for column, target in chosen.items() if target}


def _check(mapping: dict[str, str], allowed: set[str]) -> None:
    for column, target in mapping.items():
        if target not in allowed:
            raise csv_rows.MappingError(f"{column!r} is mapped to {target!r}, which is not a field")
    if not mapping:
        raise csv_rows.MappingError("map at least one column to a field")


def _bodies(
    table: csv_rows.CsvTable, chosen: dict[str, str], kind: ImportObject, types: dict[str, str]
) -> list[ImportCreate]:
    """The file's rows as POST /v1/imports bodies of at most 5,000 rows each."""
    rows = csv_rows.map_rows(table, chosen, kind)
    csv_rows.type_custom_fields(rows, types)
    return [
        ImportCreate.model_validate({"object": kind.value, "rows": chunk.rows})
        for chunk in csv_rows.chunks(rows)
    ]


@router.post(PATH + "/uploads/{upload_id}")
async def start_imports(request: Request, upload_id: str) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    kind = _object(field(form, "object"))
    runtime = get_runtime(request)
    root = runtime.settings.storage_dir
    table = await _table(request, member, upload_id)
    async with member_session(request, member) as session:
        custom = await custom_fields.live(session, ImportObject.CONTACTS.value)
    allowed = {value for value, _label in _targets(kind, custom) if value}
    chosen = _chosen(form, table)
    types = {row["key"]: row["type"] for row in custom}
    try:
        _check(chosen, allowed)
        # Up to 200,000 rows: mapped and checked as import bodies off the event loop.
        bodies = await asyncio.to_thread(_bodies, table, chosen, kind, types)
    except csv_rows.MappingError as wrong:
        return await _mapping_page(
            request, member, upload_id, kind, table, chosen=chosen, errors=[str(wrong)], status=400
        )
    except ValidationError as invalid:  # an envelope POST /v1/imports would refuse
        items = field_errors(invalid.errors())
        errors = [f"{item['field']}: {item['message']}" for item in items]
        return await _mapping_page(
            request, member, upload_id, kind, table, chosen=chosen, errors=errors, status=400
        )
    found = _upload(member, upload_id)
    # Taken before the write: a second submit of the same page finds nothing to import.
    if await asyncio.to_thread(uploads.take, root, found) is None:
        raise _gone()
    principal = member_principal(member)
    try:
        async with member_session(request, member, write=True) as session:
            for body in bodies:
                await service.create_import(session, principal, body)
    except ApiError as refused:
        await asyncio.to_thread(uploads.give_back, root, found)
        errors = [refused.message]
        return await _mapping_page(
            request, member, upload_id, kind, table, chosen=chosen, errors=errors, status=400
        )
    except BaseException:
        await asyncio.to_thread(uploads.give_back, root, found)
        raise
    await asyncio.to_thread(uploads.remove, root, found)
    return see_other(f"{PATH}?started={len(bodies)}")
