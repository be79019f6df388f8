"""CSV import in the console: upload a file, map its columns, start the imports; the
imports list (progress, counts) and each import's refused rows.

The file is never held whole in memory. The form parser spools it to a temporary file;
imports/uploads.py copies it to HOMEBASE_STORAGE_DIR a piece at a time (kept 24 hours:
for the mapping, a dry run, the start and the refused rows' CSV), and imports/csv_rows.py
reads it one row at a time: once through at the upload (its errors, its row count, each
column's distinct values for value mapping), its first rows for the mapping page. The
submit (a dry run or the start) maps the rows one at a time into the rows files of one
import per 5,000 rows (imports/row_files.py) and creates the imports through
imports/service.py with the member's principal; the worker runs them one at a time per
workspace, reading each file a batch at a time. The upload is the one route whose body
may pass HOMEBASE_MAX_BODY_BYTES: `upload_allowance` gives http/body_limit.py its limit,
HOMEBASE_IMPORT_MAX_BYTES, and the page a larger file gets.
"""

import asyncio
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from fastapi import APIRouter
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from homebase.config import Settings
from homebase.console import import_values
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
from homebase.db.tenancy import TenantSession
from homebase.http.body_limit import Allowance
from homebase.http.pages import ConsolePageError, error_page, security_headers
from homebase.imports import csv_rows, refused_csv, repository, row_files, rows, service, uploads
from homebase.imports.records import ImportOptions, ImportRecord
from homebase.imports.schemas import (
    DEFAULT_MATCH_ON,
    MAX_ROWS,
    ImportMatchKey,
    ImportObject,
    ImportStatus,
    InvalidCell,
    ValueMaps,
)
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
MAX_FILE_NAME = 200  # characters of an upload's name kept (its end)
MATCH_KEYS = [key.value for key in ImportMatchKey]
IDENTIFYING = ("email", "phone")  # a mapping without either cannot match a second import


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
        "This upload is no longer here: it was imported already, or it was uploaded more "
        "than 24 hours ago. Upload the file again.",
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
        job = await _job_or_page_error(session, member, import_id)
        found, older = await keyset_page(
            request,
            session,
            repository.errors_listing(session, import_id).page,
        )
    upload = _job_upload(member, job)
    root = get_runtime(request).settings.storage_dir
    stored = upload is not None and (
        await asyncio.to_thread(
            uploads.stored if job["dry_run"] else uploads.taken_file, root, upload
        )
        is not None
    )
    return member_page(
        request,
        member,
        "console/import.html",
        job=_shown(job),
        refused=found,
        reasons=_reasons(job),
        older=older,
        refresh=REFRESH_SECONDS if job["status"] in UNFINISHED else None,
        # a dry run's upload waits for its start; a started one's refused rows download
        mapping_link=f"{PATH}/uploads/{upload.upload_id}?object={job['object']}"
        if stored and upload is not None and job["dry_run"]
        else None,
        refused_link=f"{PATH}/{job['id']}/refused.csv"
        if stored and not job["dry_run"] and job["failed_count"]
        else None,
    )


def _reasons(job: ImportRecord) -> list[tuple[str, str, int]]:
    """(field, message, rows) of the import's refused rows, most rows first."""
    found = []
    for reason, count in job["refused_by_reason"].items():
        name, _, message = reason.partition(": ")
        found.append((name, message, count))
    return sorted(found, key=lambda item: (-item[2], item[0], item[1]))


async def _job_or_page_error(
    session: TenantSession, member: Member, import_id: str
) -> ImportRecord:
    """The member's import, or the console's Not found page (the API's 404, reworded)."""
    try:
        return await service.get_or_404(session, member_principal(member), import_id=import_id)
    except ApiError as missing:
        raise ConsolePageError(missing.status, "Not found", missing.message) from None


def _job_upload(member: Member, job: ImportRecord) -> uploads.Upload | None:
    """The upload a console import was started from (by the member whose credential
    started it, in this workspace)."""
    upload_id = job["options"].get("upload_id")
    if upload_id is None or not uploads.valid_id(upload_id):
        return None
    return uploads.Upload(member.workspace_id, job["credential_id"], upload_id)


@router.get(PATH + "/{import_id}/refused.csv")
async def refused_rows(request: Request, import_id: str) -> Response:
    """The import's refused rows as a CSV file: the upload's columns and a `why`, built
    from the upload while it lives (imports/refused_csv.py)."""
    member = await signed_in(request)
    async with member_session(request, member) as session:
        job = await _job_or_page_error(session, member, import_id)
        refused = await repository.refused_lines(session, import_id)
    upload = _job_upload(member, job)
    root = get_runtime(request).settings.storage_dir
    path = None if upload is None else await asyncio.to_thread(uploads.taken_file, root, upload)
    if path is None:
        raise ConsolePageError(
            404,
            "File not found",
            "The uploaded file this import read is gone (an upload lives 24 hours), so its "
            "refused rows cannot be written as a CSV file. The list below names each one.",
        )
    lines = {row["line"]: refused_csv.why(row["errors"]) for row in refused if row["line"]}
    try:
        data = await asyncio.to_thread(refused_csv.build, path, lines)
    except (FileNotFoundError, csv_rows.CsvError):
        raise _gone() from None
    stem = (job["options"].get("file_name") or "import").rsplit(".", 1)[0]
    return Response(
        data,
        media_type="text/csv; charset=utf-8",
        headers={
            **security_headers(no_store=True),
            "Content-Disposition": f'attachment; filename="{_safe(stem)}-refused.csv"',
        },
    )


def _safe(name: str) -> str:
    """A file name as a header may carry it: letters, digits, `-`, `_`, `.`."""
    return "".join(char if char.isalnum() or char in "-_." else "_" for char in name)[:80]


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
            name = file.filename[-MAX_FILE_NAME:]
            await asyncio.to_thread(
                uploads.save,
                runtime.settings.storage_dir,
                made,
                file.file,
                limit,
                lambda saved: _summary(saved, name),
            )
        except uploads.TooLarge:
            raise _too_large(limit) from None
        except csv_rows.CsvError as unreadable:
            return _upload_page(request, member, kind, [f"file: {unreadable}"], 400)
    finally:
        await form.close()  # the parser's temporary file, at once
    return see_other(f"{PATH}/uploads/{made.upload_id}?object={kind.value}")


def _summary(saved: IO[bytes], name: str) -> uploads.UploadSummary:
    """The upload's check: the file read through, one row at a time; its row count, each
    column's distinct values (value mapping) and the file's name."""
    found = csv_rows.scan(saved)
    if not found.rows:
        raise csv_rows.CsvError("a header row but no rows")
    return {"rows": found.rows, "values": found.values, "name": name}


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


async def _head(
    request: Request, member: Member, upload_id: str
) -> tuple[csv_rows.CsvTable, uploads.UploadSummary]:
    """The upload's columns and first rows (the file is not read further), and what the
    upload's check found (`rows`, `values`, `name`)."""
    runtime = get_runtime(request)
    found = _upload(member, upload_id)
    if uploads.expired(found, runtime.clock()):
        raise _gone()
    root = runtime.settings.storage_dir
    path = await asyncio.to_thread(uploads.stored, root, found)
    summary = await asyncio.to_thread(uploads.summary, root, found)
    if path is None or summary is None or "rows" not in summary:
        raise _gone()
    try:
        return await asyncio.to_thread(_read_head, path), summary
    except (FileNotFoundError, csv_rows.CsvError):  # taken a moment ago, or changed
        raise _gone() from None


@dataclass
class Choices:
    """What the mapping page's form chose (or the page pre-selects)."""

    mapping: dict[str, str]
    match_on: list[str]
    on_invalid_cell: str
    confirmed: bool
    tables: list[import_values.ValueColumn]

    def options(self, summary: Mapping[str, Any], upload_id: str) -> ImportOptions:
        options: ImportOptions = {
            "match_on": self.match_on,
            "skip_routing": False,
            "on_invalid_cell": self.on_invalid_cell,
            "upload_id": upload_id,
        }
        if summary.get("name"):
            options["file_name"] = str(summary["name"])
        return options


async def _choices(
    request: Request,
    member: Member,
    kind: ImportObject,
    table: csv_rows.CsvTable,
    summary: Mapping[str, Any],
    form: FormData | None,
) -> tuple[Choices, list[tuple[str, str]], Mapping[str, Any], Sequence[Mapping[str, Any]]]:
    """The form's choices (the page's pre-selections without a form), the mapping's
    targets, the preview, and the custom fields."""
    async with member_session(request, member) as session:
        custom = await custom_fields.live(session, ImportObject.CONTACTS.value)
        people = await rows.members(session)
    pairs = [(row["key"], row["label"]) for row in custom]
    shown = csv_rows.preview(table, kind, row_count=int(summary["rows"]), custom=pairs)
    if form is None:
        mapping = shown["suggested_mapping"]
        match_on = [key.value for key in DEFAULT_MATCH_ON]
        invalid, confirmed = InvalidCell.SKIP.value, False
    else:
        mapping = _chosen(form, table.columns)
        # the boxes' fieldset says it was shown: a form without it keeps the default
        shown_keys = field(form, "match_on_shown") == "yes"
        match_on = (
            [key for key in MATCH_KEYS if key in form.getlist("match_on")]
            if shown_keys
            else [key.value for key in DEFAULT_MATCH_ON]
        )
        invalid = field(form, "on_invalid_cell")
        if invalid not in (InvalidCell.SKIP.value, InvalidCell.REFUSE.value):
            invalid = InvalidCell.SKIP.value
        confirmed = field(form, "confirm_unmatched") == "yes"

    def posted(name: str) -> str | None:
        value = form.get(name) if form is not None else None
        return value if isinstance(value, str) else None

    tables = import_values.columns(
        table.columns,
        mapping,
        summary.get("values") or {},
        {row["key"]: row for row in custom},
        people,
        posted if form is not None else None,
    )
    choices = Choices(mapping, match_on, invalid, confirmed, tables)
    return choices, _targets(kind, custom), shown, custom


async def _mapping_page(
    request: Request,
    member: Member,
    upload_id: str,
    kind: ImportObject,
    table: csv_rows.CsvTable,
    summary: Mapping[str, Any],
    *,
    form: FormData | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> Response:
    choices, targets, shown, _custom = await _choices(request, member, kind, table, summary, form)
    row_count = int(summary["rows"])
    unmatched = kind is ImportObject.CONTACTS and not any(
        target in IDENTIFYING for target in choices.mapping.values()
    )
    return member_page(
        request,
        member,
        "console/import_mapping.html",
        status,
        upload_id=upload_id,
        kind=kind.value,
        file_name=summary.get("name"),
        preview=shown,
        columns=list(enumerate(table.columns)),
        mapping=choices.mapping,
        reasons=shown["reasons"],
        targets=targets,
        tables=choices.tables,
        match_keys=MATCH_KEYS,
        choices=choices,
        unmatched=unmatched,
        errors=errors or [],
        imports=-(-row_count // MAX_ROWS),
    )


@router.get(PATH + "/uploads/{upload_id}")
async def mapping_form(request: Request, upload_id: str, object: str | None = None) -> Response:
    member = await signed_in(request)
    kind = _object(object)
    table, summary = await _head(request, member, upload_id)
    return await _mapping_page(request, member, upload_id, kind, table, summary)


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
    value_map: ValueMaps,
) -> list[row_files.Part]:
    """The upload's rows, mapped one at a time (their values by value_map), into the
    rows files of its imports, each row with the line it starts on."""
    maps = rows.RowOptions(value_map=value_map).folded()

    def entries() -> Iterator[list[Any]]:
        with source.open("rb") as file:
            reader = csv_rows.CsvReader(file)
            row_of = csv_rows.mapper(reader.columns, chosen, kind)
            for line, cells in reader:
                row = rows.map_values(row_of(cells), maps)
                csv_rows.type_row(row, types)
                yield row_files.entry(line, row)

    return row_files.split(root, member.workspace_id, now, entries())


DRY_RUN = "dry_run"
REFRESH = "refresh"
UNMATCHED = (
    "No column is mapped to email or phone: every row will create a contact, and importing "
    "the file again will create each one again. Check the box to confirm."
)


@router.post(PATH + "/uploads/{upload_id}")
async def start_imports(request: Request, upload_id: str) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    kind = _object(field(form, "object"))
    action = field(form, "action")
    runtime = get_runtime(request)
    root = runtime.settings.storage_dir
    table, summary = await _head(request, member, upload_id)
    choices, targets, _shown, custom = await _choices(request, member, kind, table, summary, form)

    async def again(errors: list[str], status: int = 400) -> Response:
        return await _mapping_page(
            request,
            member,
            upload_id,
            kind,
            table,
            summary,
            form=form,
            errors=errors,
            status=status,
        )

    if action == REFRESH:
        return await again([], 200)
    allowed = {value for value, _label in targets if value}
    chosen = choices.mapping
    types = {row["key"]: row["type"] for row in custom}
    try:
        _check(chosen, allowed)
        csv_rows.mapper(table.columns, chosen, kind)  # refuses a bad mapping before any work
    except csv_rows.MappingError as wrong:
        return await again([str(wrong)])
    unmatched = kind is ImportObject.CONTACTS and not any(
        target in IDENTIFYING for target in chosen.values()
    )
    if unmatched and not choices.confirmed and action != DRY_RUN:
        return await again([UNMATCHED])
    value_map = import_values.value_map(choices.tables)
    options = choices.options(summary, upload_id)
    found = _upload(member, upload_id)
    dry_run = action == DRY_RUN
    if dry_run:  # the upload stays for the start: its rows are read, not taken
        source = await asyncio.to_thread(uploads.stored, root, found)
        if source is None:
            raise _gone()
    else:
        # Taken before the write: a second submit of the same page finds nothing to import.
        taken = await asyncio.to_thread(uploads.take, root, found)
        if taken is None:
            raise _gone()
        source = taken
    parts: list[row_files.Part] = []
    principal = member_principal(member)
    try:
        # Up to 200,000 rows, mapped one at a time into files, off the event loop; the
        # transaction then only inserts the imports.
        parts = await asyncio.to_thread(
            _split, root, source, member, runtime.clock(), chosen, kind, types, value_map
        )
        async with member_session(request, member, write=True) as session:
            for part in parts:
                await service.create_file_import(
                    session, principal, kind=kind, part=part, options=options, dry_run=dry_run
                )
    except (ApiError, csv_rows.CsvError) as refused:
        await asyncio.to_thread(_undo, root, found, parts, not dry_run)
        return await again(
            [refused.message if isinstance(refused, ApiError) else f"file: {refused}"]
        )
    except BaseException:
        await asyncio.to_thread(_undo, root, found, parts, not dry_run)
        raise
    # A started upload stays (taken) for its refused rows' CSV until it expires.
    if dry_run and len(parts) == 1:
        return see_other(f"{PATH}/{parts[0].import_id}")
    return see_other(f"{PATH}?started={len(parts)}")


def _undo(root: Path, found: uploads.Upload, parts: list[row_files.Part], taken: bool) -> None:
    """A submit that failed: the upload is there again for another try, no rows file is
    left behind."""
    if taken:
        uploads.give_back(root, found)
    row_files.remove_all(row_files.path_of(root, part.name) for part in parts)
