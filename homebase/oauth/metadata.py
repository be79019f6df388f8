"""GET /.well-known/oauth-authorization-server: RFC 8414's metadata document, from which
a client library (Authlib, oauth4webapi, AppAuth) finds the endpoints and what each
accepts instead of being configured by hand.

Every value states what the endpoints do (oauth/endpoints.py, oauth/consent.py), so the
document cannot promise more than they accept. The issuer is HOMEBASE_PUBLIC_URL, and
it is also the `iss` of every authorization response (RFC 9207 2.4: the two must be
equal). Unauthenticated and counted against no budget, like /healthz."""

from typing import Any

import orjson
from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.scopes import ALL_SCOPES
from homebase.config import Settings
from homebase.oauth.endpoints import GRANT_PARAMETERS
from homebase.oauth.schemas import AuthorizationServerMetadata
from homebase.runtime import get_runtime

PATH = "/.well-known/oauth-authorization-server"
# A client may refetch the document hourly; it changes only with HOMEBASE_PUBLIC_URL.
CACHE_CONTROL = "public, max-age=3600"
# Both endpoints read the client's id and secret from HTTP Basic or the form
# (oauth/forms.py). `none`: the code exchange needs no secret (PKCE binds the code), and
# the revocation endpoint takes a request naming no client.
CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

router = APIRouter(tags=["oauth"])


def issuer(settings: Settings) -> str:
    """The issuer identifier, also the `iss` of authorization responses (RFC 9207 2.4
    wants the two equal)."""
    return settings.public_url.rstrip("/")


def metadata(settings: Settings) -> dict[str, Any]:
    base = issuer(settings)
    return {
        "issuer": base,
        "authorization_endpoint": f"{base}/oauth/authorize",
        "token_endpoint": f"{base}/oauth/token",
        "revocation_endpoint": f"{base}/oauth/revoke",
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": list(GRANT_PARAMETERS),
        "code_challenge_methods_supported": ["S256"],
        "scopes_supported": list(ALL_SCOPES),
        "token_endpoint_auth_methods_supported": CLIENT_AUTH_METHODS,
        "revocation_endpoint_auth_methods_supported": CLIENT_AUTH_METHODS,
        "authorization_response_iss_parameter_supported": True,
        "service_documentation": f"{base}/v1/docs",
    }


@router.get(
    PATH,
    response_model=AuthorizationServerMetadata,
    summary="OAuth 2.0 authorization server metadata (RFC 8414)",
    description="The authorization, token and revocation endpoints and what each accepts: "
    "the code flow with PKCE (S256 only), the grant types, scopes and client "
    "authentication methods. Unauthenticated; cacheable for an hour.",
    openapi_extra={"security": []},
)
async def get_authorization_server_metadata(request: Request) -> Response:
    body = orjson.dumps(metadata(get_runtime(request).settings))
    return Response(body, media_type="application/json", headers={"Cache-Control": CACHE_CONTROL})
