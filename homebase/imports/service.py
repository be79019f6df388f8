"""The import rules: who may import what, the job as accepted, and reading it back.

The request stores the job with its rows and returns (202); the worker does the rows
(jobs.py, rows.py). Services never commit: the request's transaction does.
"""

from datetime import datetime
from typing import Any

from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.db.tenancy import TenantSession
from homebase.imports import repository, row_files
from homebase.imports.records import ImportOptions, ImportRecord, NewImport
from homebase.imports.schemas import (
    DEFAULT_MATCH_ON,
    ContactsImportCreate,
    ImportCreate,
    ImportObject,
    ImportStatus,
    LeadsImportCreate,
)
from homebase.kit.errors import InsufficientScope, NotFound
from homebase.kit.ids import new_id

WRITE_SCOPES = {ImportObject.CONTACTS: Scope.contacts_write, ImportObject.LEADS: Scope.leads_write}
READ_SCOPES = {ImportObject.CONTACTS: Scope.contacts_read, ImportObject.LEADS: Scope.leads_read}


async def create_import(
    session: TenantSession, principal: Principal, *, body: ImportCreate
) -> NewImport:
    """`body`: POST /v1/imports's, whose variant (by `object`) took only its own options."""
    data = body.root
    kind = ImportObject(data.object)
    scope = WRITE_SCOPES[kind]
    if not principal.has(scope):
        raise InsufficientScope(scope.value)
    now = session.now()
    match_on = data.match_on if isinstance(data, ContactsImportCreate) else DEFAULT_MATCH_ON
    options: ImportOptions = {
        "match_on": [key.value for key in match_on],
        "skip_routing": data.skip_routing,
    }
    if isinstance(data, LeadsImportCreate) and data.first_touch:
        options["first_touch"] = True
    if isinstance(data, ContactsImportCreate):
        if data.value_map:
            options["value_map"] = data.value_map
        options["on_invalid_cell"] = data.on_invalid_cell.value
    row = _job(new_id("imp"), principal, kind, options, now, data.rows, len(data.rows))
    row["dry_run"] = data.dry_run
    await repository.insert(session, row)
    session.mark_work()  # the worker starts it at once, not at its next poll
    return row


async def create_file_import(
    session: TenantSession,
    principal: Principal,
    *,
    kind: ImportObject,
    part: row_files.Part,
    options: ImportOptions | None = None,
    dry_run: bool = False,
) -> NewImport:
    """An import whose rows wait in a rows file (the console's CSV upload, written by
    row_files.split) rather than in `payload`; `options` as POST /v1/imports takes them
    (the default ones when None), `rows_file` set here."""
    scope = WRITE_SCOPES[kind]
    if not principal.has(scope):
        raise InsufficientScope(scope.value)
    options = {
        **(options or {"match_on": [key.value for key in DEFAULT_MATCH_ON], "skip_routing": False}),
        "rows_file": part.name,
    }
    row = _job(part.import_id, principal, kind, options, session.now(), None, part.rows)
    row["dry_run"] = dry_run
    await repository.insert(session, row)
    session.mark_work()
    return row


def _job(
    import_id: str,
    principal: Principal,
    kind: ImportObject,
    options: ImportOptions,
    now: datetime,
    payload: list[Any] | None,  # the request's rows (NewImport)
    row_count: int,
) -> NewImport:
    """A queued job."""
    return {
        "id": import_id,
        "object": kind.value,
        "status": ImportStatus.QUEUED.value,
        "options": options,
        "payload": payload,
        "row_count": row_count,
        "position": 0,
        "created_count": 0,
        "updated_count": 0,
        "unchanged_count": 0,
        "failed_count": 0,
        "warnings_count": 0,
        "unmatchable_count": 0,
        "dry_run": False,
        "refused_by_reason": {},
        "credential_kind": principal.credential_kind,
        "credential_id": principal.credential_id,
        "scopes": sorted(principal.granted_scopes),
        "lease_token": None,
        "lease_expires_at": None,
        "attempts": 0,
        "error": None,
        "created_at": now,
        "started_at": None,
        "finished_at": None,
        "updated_at": now,
    }


def readable(principal: Principal) -> list[str]:
    """The objects whose imports this credential may read."""
    return [kind.value for kind, scope in READ_SCOPES.items() if principal.has(scope)]


def check_readable(principal: Principal, kind: str) -> None:
    scope = READ_SCOPES[ImportObject(kind)]
    if not principal.has(scope):
        raise InsufficientScope(scope.value)


async def get_or_404(
    session: TenantSession, principal: Principal, *, import_id: str
) -> ImportRecord:
    row = await repository.get(session, import_id)
    if row is None:
        raise NotFound("No such import.")
    check_readable(principal, row["object"])
    return row


async def scrub_processed_rows(session: TenantSession, contact_id: str) -> None:
    """The erasure's scrubber (erasure/registry.py): the rows an unfinished import has
    already written leave its payload (each becomes null; the worker reads only the rows
    after its position). Which row made or updated the contact is not recorded, so every
    written row goes; they live on in the contacts and leads, which the erasure scrubbed.
    Rows not yet written stay: they are a request in flight, and one reaching the worker
    after the erasure is written as a POST /v1/contacts sent then would be (it cannot
    match the erased contact, which has no email or phone left)."""
    for row in await repository.unfinished_payloads(session):
        position, payload = row["position"], row["payload"]
        if payload is not None and any(item is not None for item in payload[:position]):
            scrubbed = [None] * position + payload[position:]
            await repository.replace_payload(session, row["id"], position, scrubbed)
