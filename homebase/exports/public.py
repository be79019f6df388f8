"""GET /exports/{token}: the download behind an export's download_url, outside /v1 and
needing no credential, like the recording proxy (calls/public.py): the signed token is
the authority; the workspace comes from it and the export is still read through a
TenantSession. The file is served only while the export is completed and not past its
expiry; an erasure or the retention sweep ends that at once."""

from typing import Any

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from homebase.db.tenancy import TenantSession
from homebase.exports import files, render, repository
from homebase.exports.links import LINKS
from homebase.kit.errors import ApiError, NotFound
from homebase.kit.openapi import ErrorEnvelope
from homebase.runtime import get_runtime

router = APIRouter(tags=["exports"])


class ExportLinkInvalid(ApiError):
    status = 403
    code = "export_link_invalid"
    message = "This export link is malformed or has been altered."


class ExportLinkExpired(ApiError):
    status = 403
    code = "export_link_expired"
    message = "This export link has expired; fetch the export again for a new one."


_FILES = {
    media_type: {"schema": {"type": "string", "format": "binary"}}
    for media_type in files.MEDIA_TYPES.values()
}


def _error(description: str) -> dict[str, Any]:
    return {"model": ErrorEnvelope, "description": description}


@router.get(
    "/exports/{token}",
    summary="Download an export's file",
    description="The target of an export's download_url. Needs no credential: the link is "
    "signed and valid five minutes. application/x-ndjson or text/csv; charset=utf-8, as an "
    "attachment. Supports Range requests (206 with Content-Range).",
    openapi_extra={"security": []},
    response_class=FileResponse,
    responses={
        200: {"content": _FILES, "description": "The file."},
        206: {"content": _FILES, "description": "The requested byte range, with Content-Range."},
        403: _error(
            "Link expired (export_link_expired) or altered or malformed (export_link_invalid)."
        ),
        404: _error("The export's file no longer exists: expired or removed (not_found)."),
    },
)
async def download_export(request: Request, token: str) -> Response:
    runtime = get_runtime(request)
    claim = LINKS.verify(runtime.settings.keys, token)
    if claim is None:
        raise ExportLinkInvalid()
    now = runtime.clock()
    if now >= claim.expires_at:
        raise ExportLinkExpired()
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, claim.workspace_id, clock=runtime.clock)
        row = await repository.get(session, claim.subject_id)
    path = (
        files.path_of(runtime.settings.storage_dir, row["file_name"])
        if row is not None and row["file_name"] and render.status(row, now) == "completed"
        else None
    )
    if row is None or path is None or not path.is_file():
        raise NotFound("No such export file: it expired or was removed.")
    remaining = int((claim.expires_at - now).total_seconds())
    return FileResponse(
        path,
        media_type=files.MEDIA_TYPES[row["format"]],
        filename=f"{row['object']}-{row['id']}.{row['format']}",
        headers={"Cache-Control": f"private, max-age={max(remaining, 0)}"},
    )


router.add_api_route("/exports/{token}", download_export, methods=["HEAD"], include_in_schema=False)
