"""GET/POST /oauth/authorize: the authorization request (RFC 6749 4.1.1, RFC 7636) and the
consent screen.

Checks run in RFC 6749 4.1.2.1's order: an unknown client or a redirect_uri that is not
registered is answered with an error page here and never redirected (an open redirector
otherwise); every later problem is sent back to the client's redirect_uri with `error`
and the untouched `state`. The request parameters travel from the consent page to its
POST in one signed field bound to the member's session and ten minutes, so they cannot be
altered or replayed by another session.
"""

from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

import orjson
from fastapi import APIRouter
from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from homebase.auth.scopes import DESCRIPTIONS, Scope
from homebase.console.sessions import (
    CSRF_FIELD,
    Member,
    check_csrf,
    csrf_token,
    current_member,
    login_redirect,
    request_target,
)
from homebase.http.pages import ConsolePageError, error_page, html_page
from homebase.kit import nul
from homebase.kit.crypto import open_signed_blob, signed_blob
from homebase.kit.nul import names_holding_nul
from homebase.models import Workspace
from homebase.oauth import service, tokens
from homebase.oauth.errors import OAuthError, invalid_request
from homebase.oauth.metadata import issuer
from homebase.oauth.redirects import find_registered
from homebase.runtime import Runtime, get_runtime

router = APIRouter(prefix="/oauth", tags=["oauth"])
PURPOSE = "oauth-consent"
CONSENT_SECONDS = 600
MAX_STATE = 1000


@dataclass(frozen=True)
class AuthorizationRequest:
    client_id: str
    redirect_uri: str
    scopes: list[str]
    state: str | None
    code_challenge: str
    session_id: str = ""
    issued: int = 0


def _query(request: Request) -> tuple[dict[str, str], list[str]]:
    """The query parameters (empty ones count as absent) and the names sent twice."""
    items = request.query_params.multi_items()
    names = [name for name, _ in items]
    repeated = sorted({name for name in names if names.count(name) > 1})
    return {name: value for name, value in items if value != "" and name not in repeated}, repeated


def _page_error(status: int, title: str, message: str) -> Response:
    return error_page(ConsolePageError(status, title, message))


def _redirect(redirect_uri: str, params: dict[str, str | None], runtime: Runtime) -> Response:
    values = {name: value for name, value in params.items() if value is not None}
    values["iss"] = issuer(runtime.settings)  # RFC 9207: the app can tell who answered
    separator = "&" if urlsplit(redirect_uri).query else "?"
    return RedirectResponse(
        f"{redirect_uri}{separator}{urlencode(values)}",
        status_code=303,
        headers={"Cache-Control": "no-store"},
    )


def _validate(
    query: dict[str, str], repeated: list[str], client_id: str, redirect_uri: str
) -> AuthorizationRequest:
    if repeated:
        raise invalid_request(f"Parameters must not be repeated: {', '.join(repeated)}.")
    if "response_type" not in query:
        raise invalid_request("response_type is required.")
    if query["response_type"] != "code":
        raise OAuthError("unsupported_response_type", "Only response_type=code is supported.")
    if len(query.get("state", "")) > MAX_STATE:
        raise invalid_request(f"state must be at most {MAX_STATE} characters.")
    if "scope" not in query:
        raise OAuthError("invalid_scope", "scope is required.")
    scopes = tokens.scope_list(query["scope"]) or []
    if "code_challenge" not in query:
        raise invalid_request("code_challenge is required (PKCE with S256).")
    method = query.get("code_challenge_method")
    if method != "S256":
        raise invalid_request(
            "code_challenge_method must be S256."
            if method
            else "code_challenge_method is required and must be S256."
        )
    if not tokens.valid_challenge(query["code_challenge"]):
        raise invalid_request("code_challenge must be 43 base64url characters.")
    return AuthorizationRequest(
        client_id=client_id,
        redirect_uri=redirect_uri,
        scopes=scopes,
        state=query.get("state"),
        code_challenge=query["code_challenge"],
    )


@router.get("/authorize", include_in_schema=False)
async def authorize(request: Request) -> Response:
    runtime = get_runtime(request)
    query, repeated = _query(request)
    holding_nul = names_holding_nul(request.query_params.multi_items())
    if holding_nul:  # kit/nul.py: before any lookup (PostgreSQL cannot compare it)
        return _page_error(
            400,
            "Invalid request",
            f"This sign-in link's parameters {nul.MESSAGE}: {', '.join(holding_nul)}.",
        )
    async with runtime.db.transaction(write=False) as connection:
        client = await service.get_client(connection, query.get("client_id"))
    if client is None:
        return _page_error(
            400,
            "Unknown application",
            "This sign-in link names an application that is not registered.",
        )
    redirect_uri = find_registered(client["redirect_uris"], query.get("redirect_uri"))
    if redirect_uri is None:
        return _page_error(
            400,
            "Invalid redirect address",
            "This sign-in link's redirect_uri is missing or is not one the "
            "application registered, so you are not sent there.",
        )
    try:
        authorization = _validate(query, repeated, client["id"], redirect_uri)
    except OAuthError as error:
        return _redirect(redirect_uri, {**error.body(), "state": query.get("state")}, runtime)
    member = await current_member(request)
    if member is None:
        return login_redirect(request_target(request))
    return await _consent_page(request, runtime, member, client, authorization)


async def _consent_page(
    request: Request,
    runtime: Runtime,
    member: Member,
    client: dict[str, Any],
    authorization: AuthorizationRequest,
) -> Response:
    async with runtime.db.transaction(write=False) as connection:
        workspace_name = (
            await connection.execute(
                select(Workspace.__table__.c.name).where(
                    Workspace.__table__.c.id == member.workspace_id
                )
            )
        ).scalar_one()
    bound = AuthorizationRequest(
        **{
            **asdict(authorization),
            "session_id": member.session_id,
            "issued": int(runtime.clock().timestamp()),
        }
    )
    blob = signed_blob(runtime.settings.keys, PURPOSE, orjson.dumps(asdict(bound)), 16)
    target = urlsplit(authorization.redirect_uri)
    # form-action left out: the POST answers with a redirect to the app (pages.py).
    return html_page(
        "oauth/consent.html",
        no_store=True,
        form_action=None,
        client_name=client["name"],
        workspace_name=workspace_name,
        email=member.email,
        return_to=f"{target.scheme}://{target.netloc}",
        scopes=[(name, DESCRIPTIONS[Scope(name)]) for name in authorization.scopes],
        csrf_token=csrf_token(request, member),
        request_blob=blob,
    )


def _open(runtime: Runtime, blob: str, member: Member) -> AuthorizationRequest | None:
    payload = open_signed_blob(runtime.settings.keys, PURPOSE, blob, 16)
    if payload is None:
        return None
    try:
        authorization = AuthorizationRequest(**orjson.loads(payload))
    except (orjson.JSONDecodeError, TypeError):
        return None
    age = runtime.clock().timestamp() - authorization.issued
    fresh = -60 <= age <= CONSENT_SECONDS
    return authorization if fresh and authorization.session_id == member.session_id else None


@router.post("/authorize", include_in_schema=False)
async def decide(request: Request) -> Response:
    runtime = get_runtime(request)
    member = await current_member(request)
    if member is None:
        return _page_error(
            403,
            "Signed out",
            "Your session ended before you decided. Go back to the application and start again.",
        )
    form = await request.form()
    submitted = {name: value for name, value in form.items() if isinstance(value, str)}
    try:
        check_csrf(request, member, submitted.get(CSRF_FIELD))
    except ConsolePageError as error:
        return error.response()
    authorization = _open(runtime, submitted.get("request", ""), member)
    if authorization is None:
        return _page_error(
            400,
            "Request expired",
            "This consent form has expired or was "
            "altered. Go back to the application and start again.",
        )
    decision = submitted.get("decision")
    if decision not in ("approve", "deny"):
        return _page_error(400, "No decision", "Choose Approve or Deny.")
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        client = await service.get_client(connection, authorization.client_id)
        if (
            client is None
            or find_registered(client["redirect_uris"], authorization.redirect_uri) is None
        ):
            return _page_error(
                400, "Unknown application", "This application is no longer registered."
            )
        if decision == "deny":
            return _redirect(
                authorization.redirect_uri,
                {
                    "error": "access_denied",
                    "error_description": "The member denied the request.",
                    "state": authorization.state,
                },
                runtime,
            )
        grant = await service.authorize_app(
            connection,
            workspace_id=member.workspace_id,
            client_id=client["id"],
            scopes=authorization.scopes,
            now=now,
            authorized_by=member.user_id,
        )
        code = await tokens.create_code(
            connection,
            client_id=client["id"],
            grant=grant,
            user_id=member.user_id,
            redirect_uri=authorization.redirect_uri,
            code_challenge=authorization.code_challenge,
            scopes=authorization.scopes,
            now=now,
        )
    return _redirect(
        authorization.redirect_uri, {"code": code, "state": authorization.state}, runtime
    )
