"""The export rules: who may ask for which list, what an export freezes of the request
(filters and fields as validated, the credential's masking), who may read it back, and
what a contact's erasure does to the files (docs/imports-exports.md)."""

from datetime import datetime, timedelta
from typing import Any

from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.db.tenancy import TenantSession
from homebase.exports import render, repository
from homebase.exports.links import LINKS
from homebase.exports.objects import CONTACT_DATA, OBJECTS, Exportable
from homebase.exports.schemas import ExportCreate
from homebase.kit.errors import InsufficientScope, NotFound
from homebase.kit.ids import new_id
from homebase.kit.keys import Keyring
from homebase.models import Export

exports = Export.__table__
# How long a finished file is kept (then removed by exports/jobs.expire).
FILE_RETENTION = timedelta(days=7)


def readable(principal: Principal, item: Exportable, *, pii: bool) -> None:
    """InsufficientScope unless the credential may read this list, and, for a file made
    unmasked (for a credential holding contacts:read:pii), holds contacts:read:pii too:
    a masked credential never gets another's unmasked file, of any list. Every list
    masks something for a credential without it (an email, a phone, or the phone numbers
    and emails inside free text: a deal's custom text fields), and a list that masks
    nothing today may tomorrow, so the rule asks no list whether it does."""
    if not principal.has(item.scope):
        raise InsufficientScope(item.scope.value)
    if pii and not principal.has(Scope.contacts_read_pii):
        raise InsufficientScope(Scope.contacts_read_pii.value)


async def create_export(
    session: TenantSession, principal: Principal, *, body: ExportCreate
) -> dict[str, Any]:
    request = body.root
    item = OBJECTS[request.object]
    readable(principal, item, pii=False)
    # The filters as validated (JSON form, unset members left out); `fields` was checked
    # against the item's members by the body's model, with the filters, in one 400.
    filters = request.filters.model_dump(mode="json", exclude_unset=True, exclude_none=True)
    fields = request.fields.strip(" ") if request.fields else None
    now = session.now()
    row: dict[str, Any] = {
        "id": new_id("exp"),
        "object": item.name,
        "format": request.format.value,
        "filters": filters,
        "fields": fields or None,
        "pii": principal.has(Scope.contacts_read_pii),
        "scopes": list(principal.granted_scopes),
        "requested_by": principal.credential_id,
        "status": "queued",
        "rows": 0,
        "file_name": None,
        "failure_reason": None,
        "attempts": 0,
        "lease_token": None,
        "lease_expires_at": None,
        "created_at": now,
        "started_at": None,
        "finished_at": None,
        "expires_at": None,
        "updated_at": now,
    }
    await repository.insert(session, row)
    session.mark_work()
    return row


async def get_export(
    session: TenantSession, principal: Principal, *, export_id: str
) -> dict[str, Any]:
    row = await repository.get(session, export_id)
    if row is None:
        raise NotFound("No such export.")
    readable(principal, OBJECTS[row["object"]], pii=row["pii"])
    return row


def wire(
    row: dict[str, Any], keys: Keyring, *, public_url: str, workspace_id: str, now: datetime
) -> dict[str, Any]:
    """The export as the API shows it, with a fresh download link while its file is there."""
    link = None
    if render.status(row, now) == "completed" and row["file_name"]:
        link = LINKS.issue(keys, public_url, workspace_id, row["id"], now)
    return render.export(row, now=now, link=link)


def listed_objects(principal: Principal) -> list[str]:
    """The lists whose exports this credential may see."""
    return [name for name, item in OBJECTS.items() if principal.has(item.scope)]


async def scrub_contact_exports(session: TenantSession, contact_id: str) -> None:
    """No export file may keep an erased person's data, and which file holds whom is not
    known without reading it; so every export of a list that can carry a person's data
    (exports/objects.CONTACT_DATA), whatever its filters, loses its file:

    - completed: expired now, so its download is refused from the moment this erasure
      commits; the worker removes the file after the commit (exports/jobs.expire), as
      a file deleted here could not come back if this transaction rolled back;
    - running: its worker may have read the person already, so its lease is taken back
      and it is queued again: the worker's fenced finish fails and discards its file, and
      the export is made again from scratch, from the erased data.
    Queued ones read after this commit. `contact_id` is not needed: all go."""
    now = session.now()
    scope = exports.c.object.in_(CONTACT_DATA)
    await session.execute(
        session.update(exports)
        .where(scope, exports.c.status == "running")
        # Not a failure of the export: its attempts start again.
        .values(
            status="queued",
            lease_token=None,
            lease_expires_at=None,
            rows=0,
            attempts=0,
            updated_at=now,
        )
    )
    expired = await session.execute(
        session.update(exports)
        .where(scope, exports.c.status == "completed")
        .values(status="expired", expires_at=now, updated_at=now)
    )
    if expired:
        session.mark_work()
