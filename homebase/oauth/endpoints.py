"""POST /oauth/token and POST /oauth/revoke (outside /v1: no API credential, RFC bodies).

Each request is one transaction; an error rolls it back unless it carries a revocation
that must stand (OAuthError.commit)."""

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson
from fastapi import APIRouter
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import Request
from starlette.responses import Response

from homebase.oauth import tokens
from homebase.oauth.errors import OAuthError, invalid_request
from homebase.oauth.forms import authenticate_client, optional_client, read_form, require
from homebase.oauth.schemas import (
    CLIENT_AUTH_ERRORS,
    RevokeRequest,
    RevokeResponse,
    TokenRequest,
    TokenResponse,
    form_body,
)
from homebase.runtime import Runtime, get_runtime

router = APIRouter(prefix="/oauth", tags=["oauth"])
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
T = TypeVar("T")


def oauth_json(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    return Response(
        orjson.dumps(body),
        status_code=status,
        media_type="application/json",
        headers={**NO_STORE, **(headers or {})},
    )


def error_response(error: OAuthError) -> Response:
    return oauth_json(error.body(), error.status, error.headers)


async def in_transaction(runtime: Runtime, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
    committed_error: OAuthError | None = None
    async with runtime.db.transaction() as connection:
        try:
            return await work(connection)
        except OAuthError as error:
            if not error.commit:
                raise
            committed_error = error  # leave the block normally: the revocation commits
    raise committed_error


# The parameters each endpoint recognises are the members its document states; any other
# is ignored (RFC 6749 3.1), so only these are refused when repeated.
TOKEN_PARAMETERS = frozenset(TokenRequest.model_fields)
REVOKE_PARAMETERS = frozenset(RevokeRequest.model_fields)
GRANT_PARAMETERS = {
    "authorization_code": ("code", "redirect_uri", "code_verifier"),
    "refresh_token": ("refresh_token",),
    "client_credentials": (),
}


@router.post(
    "/token",
    response_model=TokenResponse,
    responses=CLIENT_AUTH_ERRORS,
    summary="Exchange a code, refresh, or get a client-credentials token",
    description="RFC 6749 token endpoint, form-encoded. Access tokens live 3600 s; refresh "
    "tokens 30 days and rotate on every use; codes 5 minutes, single use. "
    "Responses carry Cache-Control: no-store. A failed client authentication "
    "(invalid_client) counts against the client address's budget of "
    "HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN a minute and carries its "
    "X-RateLimit-* headers; past it, 429 rate_limited with Retry-After.",
    openapi_extra=form_body(TokenRequest),
)
async def issue_oauth_token(request: Request) -> Response:
    runtime = get_runtime(request)
    try:
        form = await read_form(request, TOKEN_PARAMETERS)
        require(form, "grant_type")
        grant_type = form["grant_type"]
        if grant_type not in GRANT_PARAMETERS:
            raise OAuthError(
                "unsupported_grant_type",
                f"grant_type must be one of {', '.join(GRANT_PARAMETERS)}.",
            )
        require(form, *GRANT_PARAMETERS[grant_type])
        if grant_type == "authorization_code" and not tokens.valid_verifier(form["code_verifier"]):
            raise invalid_request(
                "code_verifier must be 43 to 128 unreserved characters (A-Z a-z 0-9 - . _ ~)."
            )
        client = await authenticate_client(
            request, form, required=grant_type != "authorization_code"
        )
        now = runtime.clock()

        async def work(connection: AsyncConnection) -> tokens.TokenSet:
            if grant_type == "authorization_code":
                return await tokens.exchange_code(
                    connection,
                    client=client,
                    code=form["code"],
                    redirect_uri=form["redirect_uri"],
                    code_verifier=form["code_verifier"],
                    now=now,
                )
            if grant_type == "refresh_token":
                return await tokens.refresh(
                    connection,
                    client=client,
                    refresh_token=form["refresh_token"],
                    scope=form.get("scope"),
                    now=now,
                )
            return await tokens.client_credentials(
                connection,
                client=client,
                tenant_id=form.get("tenant_id"),
                scope=form.get("scope"),
                now=now,
            )

        issued = await in_transaction(runtime, work)
    except OAuthError as error:
        return error_response(error)
    return oauth_json(issued.as_json())


@router.post(
    "/revoke",
    response_model=RevokeResponse,
    responses=CLIENT_AUTH_ERRORS,
    summary="Revoke an access or refresh token",
    description="RFC 7009. Always 200 for a well-formed request, including for tokens that "
    "never existed. Revoking a refresh token ends its family (every token of "
    "the grant). Client authentication is optional; when sent it must be right, "
    "and then only that client's tokens are revoked. A failed client authentication "
    "(invalid_client) counts against the client address's budget of "
    "HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN a minute, as at /oauth/token; past "
    "it, 429 rate_limited with Retry-After.",
    openapi_extra=form_body(RevokeRequest),
)
async def revoke_oauth_token(request: Request) -> Response:
    runtime = get_runtime(request)
    try:
        form = await read_form(request, REVOKE_PARAMETERS)
        require(form, "token")
        client = await optional_client(request, form)
        now = runtime.clock()

        async def work(connection: AsyncConnection) -> None:
            await tokens.revoke_token(connection, form["token"], client, now)

        await in_transaction(runtime, work)
    except OAuthError as error:
        return error_response(error)
    return oauth_json({})
