"""The two call routes outside /v1, which take no API credential:

- GET /recordings/{token}: the recording proxy behind recording_url. The signed token is
  the authority; the workspace comes from it and the call is still read through a
  TenantSession. Range requests are served by Starlette's FileResponse (206).
- POST /providers/calls/completed: the telephony provider's callback, authenticated by
  an HMAC-SHA256 of the raw body (X-Homebase-Signature: sha256=<hex>) keyed by
  HOMEBASE_CALLS_PROVIDER_SECRET.
"""

import hashlib
import hmac
from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from homebase.calls import recordings, repository, service
from homebase.calls.schemas import CallCompleted, CallRecorded
from homebase.db.tenancy import TenantSession
from homebase.kit.crypto import same_text
from homebase.kit.errors import (
    ApiError,
    NotFound,
    Unauthenticated,
    ValidationFailed,
)
from homebase.kit.openapi import ErrorEnvelope
from homebase.kit.phones import to_e164
from homebase.kit.responses import JSONResponse, json_response
from homebase.kit.validation import validation_failed
from homebase.runtime import get_runtime

router = APIRouter(tags=["calls"])
SIGNATURE_HEADER = "X-Homebase-Signature"
MAX_CALLBACK_BYTES = 1_000_000


class LinkInvalid(ApiError):
    status = 403
    code = "recording_link_invalid"
    message = "This recording link is malformed or has been altered."


class LinkExpired(ApiError):
    status = 403
    code = "recording_link_expired"
    message = "This recording link has expired; fetch the call again for a new one."


_AUDIO = {
    media_type: {"schema": {"type": "string", "format": "binary"}}
    for media_type in ("audio/wav", "audio/mpeg", "audio/mp4", "audio/ogg")
}


# FastAPI's `responses` entry: OpenAPI's own JSON
def _error(status: int, description: str) -> dict[str, Any]:
    return {"model": ErrorEnvelope, "description": description}


@router.get(
    "/recordings/{token}",
    summary="Stream a call recording",
    description="The target of a call's recording_url. Needs no credential: the link is "
    "signed and valid five minutes. Supports Range requests (206 with "
    "Content-Range).",
    openapi_extra={"security": []},
    response_class=FileResponse,
    responses={
        200: {"content": _AUDIO, "description": "The audio."},
        206: {"content": _AUDIO, "description": "The requested byte range, with Content-Range."},
        416: {"description": "The range lies outside the file."},
        403: _error(
            403,
            "Link expired (recording_link_expired) or altered or "
            "malformed (recording_link_invalid).",
        ),
        404: _error(404, "The call or its recording no longer exists (not_found)."),
    },
)
async def stream_recording(request: Request, token: str) -> Response:
    runtime = get_runtime(request)
    claim = recordings.verify(runtime.settings.keys, token)
    if claim is None:
        raise LinkInvalid()
    if runtime.clock() >= claim.expires_at:
        raise LinkExpired()
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, claim.workspace_id, clock=runtime.clock)
        call = await repository.get(session, claim.subject_id)
    path = (
        recordings.resolve(runtime.settings.recordings_dir, call["recording_key"])
        if call and call["recording_key"]
        else None
    )
    if path is None or not path.is_file():
        raise NotFound("No such recording.")
    remaining = int((claim.expires_at - runtime.clock()).total_seconds())
    return FileResponse(
        path,
        media_type=recordings.media_type(path),
        headers={"Cache-Control": f"private, max-age={max(remaining, 0)}"},
    )


router.add_api_route(
    "/recordings/{token}", stream_recording, methods=["HEAD"], include_in_schema=False
)


def _check_signature(secret: str, body: bytes, header: str | None) -> None:
    if not secret:
        # Switched off, not broken: a 5xx would page someone and invite the provider to
        # retry a callback that can never be accepted (docs/deals-listings-calls.md).
        raise NotFound(
            "Call provider callbacks are not enabled on this server "
            "(HOMEBASE_CALLS_PROVIDER_SECRET is unset)."
        )
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if not header or not same_text(expected, header.strip()):
        raise Unauthenticated(f"{SIGNATURE_HEADER} is missing or does not match the body.")


async def _workspace_for(connection: AsyncConnection, call: CallCompleted) -> str:
    if call.workspace_id is not None:
        if not await repository.workspace_exists(connection, call.workspace_id):
            raise ValidationFailed.for_field("workspace_id", "is not a workspace")
        return call.workspace_id
    field = "to" if call.direction == "inbound" else "from"
    number = call.to if field == "to" else call.from_
    e164 = to_e164(number)
    owners = await repository.workspaces_owning(connection, e164) if e164 else []
    if len(owners) != 1:
        reason = (
            "is not a number of any workspace"
            if not owners
            else "belongs to several workspaces; send workspace_id"
        )
        raise ValidationFailed.for_field(field, reason)
    return owners[0]


# JSON Schema, as pydantic writes it (a boundary)
def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """The model's JSON schema with its local $defs inlined, for a hand-written requestBody
    (FastAPI only registers components for bodies it parses itself)."""
    definitions = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            reference = node.get("$ref", "")
            if reference.startswith("#/$defs/"):
                return walk(definitions[reference.removeprefix("#/$defs/")])
            return {key: walk(value) for key, value in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    inlined: dict[str, Any] = walk(schema)  # as `schema`
    return inlined


_CALLBACK_SCHEMA = _inlined(CallCompleted.model_json_schema(by_alias=True))


@router.post(
    "/providers/calls/completed",
    status_code=201,
    response_model=CallRecorded,
    summary="Provider callback: a call finished",
    description="For the telephony provider, not API clients. Sign the exact raw body: "
    f"`{SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 keyed by "
    "HOMEBASE_CALLS_PROVIDER_SECRET>`. Records the call (201), or answers 200 "
    "with created false when provider_call_id was already recorded; matches the "
    "contact by the other party's number, adds a call entry to its timeline and "
    "emits call.completed.",
    openapi_extra={
        "security": [],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _CALLBACK_SCHEMA}},
        },
    },
    responses={
        200: {"model": CallRecorded, "description": "Already recorded."},
        400: _error(
            400,
            "The body failed validation, or no single workspace owns the "
            "receiving number (validation_failed).",
        ),
        401: _error(401, "Signature missing or wrong (unauthenticated)."),
        404: _error(
            404,
            "Callbacks are not enabled here: HOMEBASE_CALLS_PROVIDER_SECRET is unset (not_found).",
        ),
    },
)
async def receive_call_completed(request: Request) -> JSONResponse:
    runtime = get_runtime(request)
    body = await request.body()
    _check_signature(
        runtime.settings.calls_provider_secret, body, request.headers.get(SIGNATURE_HEADER)
    )
    if len(body) > MAX_CALLBACK_BYTES:
        raise ValidationFailed("The callback body is too large.")
    try:
        call = CallCompleted.model_validate_json(body)
    except ValidationError as error:
        raise validation_failed(
            [{**item, "loc": ("body", *item["loc"])} for item in error.errors()]
        ) from None
    workspace_id = None
    try:
        async with runtime.db.transaction() as connection:
            workspace_id = await _workspace_for(connection, call)
            session = TenantSession(connection, workspace_id, clock=runtime.clock, actor="provider")
            existing = await repository.get_by_provider_id(session, call.provider_call_id)
            if existing is not None:
                return _recorded(existing["id"], workspace_id, created=False)
            row = await service.record_call(session, call, provider_call_id=call.provider_call_id)
    except IntegrityError:
        # A concurrent delivery of the same callback inserted it first: same answer as a
        # repeat. Anything else that broke a constraint is re-raised.
        if workspace_id is None:
            raise
        async with runtime.db.transaction(write=False) as connection:
            session = TenantSession(connection, workspace_id, clock=runtime.clock)
            existing = await repository.get_by_provider_id(session, call.provider_call_id)
        if existing is None:
            raise
        return _recorded(existing["id"], workspace_id, created=False)
    return _recorded(row["id"], workspace_id, created=True)


def _recorded(call_id: str, workspace_id: str, *, created: bool) -> JSONResponse:
    return json_response(
        {"id": call_id, "workspace_id": workspace_id, "created": created}, 201 if created else 200
    )
