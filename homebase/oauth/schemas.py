"""The OAuth endpoints' bodies, for the OpenAPI document (they are read as forms by
forms.py, not through these models)."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from homebase.auth.scopes import DESCRIPTIONS
from homebase.kit.openapi import RETRY_AFTER_HEADER, UNAUTHENTICATED_BUDGET_HEADERS
from homebase.oauth.forms import FORM_TYPE


class TokenRequest(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "grant_type": "authorization_code",
                    "client_id": "app_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "code": "hbo_code_...",
                    "redirect_uri": "https://app.example.com/callback",
                    "code_verifier": "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
                },
                {
                    "grant_type": "refresh_token",
                    "client_id": "app_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "client_secret": "hbo_cs_...",
                    "refresh_token": "hbo_rt_...",
                },
                {
                    "grant_type": "client_credentials",
                    "client_id": "app_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "client_secret": "hbo_cs_...",
                    "tenant_id": "wsp_01jd3v6k8h2k3m4n5p6q7r8s9t",
                },
            ]
        }
    )

    grant_type: Literal["authorization_code", "refresh_token", "client_credentials"]
    client_id: str | None = Field(None, description="Required unless sent with HTTP Basic.")
    client_secret: str | None = Field(
        None,
        description="Required for refresh_token and client_credentials unless HTTP "
        "Basic is used (never both); optional for authorization_code.",
    )
    code: str | None = Field(None, description="authorization_code: the code.")
    redirect_uri: str | None = Field(
        None, description="authorization_code: the redirect_uri the code was issued for."
    )
    code_verifier: str | None = Field(
        None, description="authorization_code: the PKCE verifier, 43-128 unreserved characters."
    )
    refresh_token: str | None = Field(None, description="refresh_token: the refresh token.")
    scope: str | None = Field(
        None,
        description="refresh_token, client_credentials: an optional narrower "
        "space-separated set of the granted scopes.",
    )
    tenant_id: str | None = Field(
        None,
        description="client_credentials: the workspace; required when more than one "
        "workspace has authorized the app.",
    )


class TokenResponse(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "access_token": "hbo_at_...",
                    "token_type": "Bearer",
                    "expires_in": 3600,
                    "refresh_token": "hbo_rt_...",
                    "scope": "contacts:read deals:read",
                    "tenant_id": "wsp_01jd3v6k8h2k3m4n5p6q7r8s9t",
                }
            ]
        }
    )

    access_token: str = Field(description="Send as `Authorization: Bearer <access_token>`.")
    token_type: Literal["Bearer"]
    expires_in: int = Field(description="Seconds the access token lives (3600).")
    refresh_token: str | None = Field(
        None,
        description="Absent for client_credentials. Single use: each refresh returns "
        "a new one; presenting a used one revokes the whole family.",
    )
    scope: str = Field(description="The granted scopes, space-separated.")
    tenant_id: str = Field(description="The workspace the token acts on.")


class RevokeRequest(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"token": "hbo_rt_...", "token_type_hint": "refresh_token"}]
        }
    )

    token: str = Field(
        min_length=1, description="The token to revoke; empty is refused (invalid_request)."
    )
    token_type_hint: Literal["access_token", "refresh_token"] | None = Field(
        None, description="Accepted and not needed: every token is found by its value."
    )
    client_id: str | None = Field(None, description="Optional client authentication.")
    client_secret: str | None = None


TokenAuthMethod = Literal["client_secret_basic", "client_secret_post", "none"]


class AuthorizationServerMetadata(BaseModel):
    """RFC 8414 authorization server metadata: the endpoints and what each accepts, for
    client libraries that configure themselves from it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "issuer": "https://api.example.com",
                    "authorization_endpoint": "https://api.example.com/oauth/authorize",
                    "token_endpoint": "https://api.example.com/oauth/token",
                    "revocation_endpoint": "https://api.example.com/oauth/revoke",
                    "response_types_supported": ["code"],
                    "response_modes_supported": ["query"],
                    "grant_types_supported": [
                        "authorization_code",
                        "refresh_token",
                        "client_credentials",
                    ],
                    "code_challenge_methods_supported": ["S256"],
                    "scopes_supported": ["contacts:read", "contacts:write"],
                    "token_endpoint_auth_methods_supported": [
                        "client_secret_basic",
                        "client_secret_post",
                        "none",
                    ],
                    "revocation_endpoint_auth_methods_supported": [
                        "client_secret_basic",
                        "client_secret_post",
                        "none",
                    ],
                    "authorization_response_iss_parameter_supported": True,
                    "service_documentation": "https://api.example.com/v1/docs",
                }
            ]
        }
    )

    issuer: str = Field(
        description="HOMEBASE_PUBLIC_URL; also the `iss` of every authorization response "
        "(RFC 9207)."
    )
    authorization_endpoint: str
    token_endpoint: str
    revocation_endpoint: str
    response_types_supported: list[Literal["code"]]
    response_modes_supported: list[Literal["query"]]
    grant_types_supported: list[
        Literal["authorization_code", "refresh_token", "client_credentials"]
    ]
    code_challenge_methods_supported: list[Literal["S256"]] = Field(
        description="PKCE is required on every authorization request; plain is refused."
    )
    scopes_supported: list[str] = Field(description="Every scope a client may request.")
    token_endpoint_auth_methods_supported: list[TokenAuthMethod] = Field(
        description="`none`: a public client (no secret) exchanging a code with its PKCE "
        "verifier; refresh_token and client_credentials need the secret."
    )
    revocation_endpoint_auth_methods_supported: list[TokenAuthMethod] = Field(
        description="Client authentication is optional at /oauth/revoke; when sent it must "
        "be right."
    )
    authorization_response_iss_parameter_supported: bool
    service_documentation: str = Field(description="The interactive API documentation.")


class OAuthErrorBody(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "error": "invalid_grant",
                    "error_description": "The authorization code has expired.",
                }
            ]
        }
    )

    error: Literal[
        "invalid_request",
        "invalid_client",
        "invalid_grant",
        "unauthorized_client",
        "unsupported_grant_type",
        "invalid_scope",
        "rate_limited",
    ]
    error_description: str


class RevokeResponse(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{}]})


def form_body(model: type[BaseModel]) -> dict[str, Any]:
    """openapi_extra for a route whose body is a form described by `model`."""
    return {
        "requestBody": {
            "required": True,
            "content": {FORM_TYPE: {"schema": model.model_json_schema()}},
        },
        "security": [],
    }


OAUTH_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": OAuthErrorBody, "description": "RFC 6749 5.2 error"},
    401: {
        "model": OAuthErrorBody,
        "description": "invalid_client when the client used HTTP Basic (with "
        "WWW-Authenticate: Basic)",
    },
}
# Every OAuth endpoint that authenticates a client (/oauth/token, /oauth/revoke) counts
# its failures per client address (docs/decisions.md "Unauthenticated budget"):
# invalid_client answers carry that budget's headers (every 401 here is invalid_client; a
# 400 is only sometimes, so its description says it).
CLIENT_AUTH_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": OAuthErrorBody,
        "description": "RFC 6749 5.2 error; an invalid_client one (the client authenticated "
        "with form fields) also carries the X-RateLimit-* headers of the "
        "address's budget",
    },
    401: {**OAUTH_ERRORS[401], "headers": UNAUTHENTICATED_BUDGET_HEADERS},
    429: {
        "model": OAuthErrorBody,
        "description": "rate_limited: this address has failed client authentication more "
        "than HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN times this minute; "
        "Retry-After gives the seconds to wait.",
        "headers": {**UNAUTHENTICATED_BUDGET_HEADERS, "Retry-After": RETRY_AFTER_HEADER},
    },
}

_SCOPES = {scope.value: text for scope, text in DESCRIPTIONS.items()}
SECURITY_SCHEME: dict[str, Any] = {
    "type": "oauth2",
    "description": "An app's access token, `Authorization: Bearer <access token>` (tokens "
    "start with `hbo_at_`; the `token` scheme works too). PKCE with S256 is "
    "required; see docs/oauth.md.",
    "flows": {
        "authorizationCode": {
            "authorizationUrl": "/oauth/authorize",
            "tokenUrl": "/oauth/token",
            "refreshUrl": "/oauth/token",
            "scopes": _SCOPES,
        },
        "clientCredentials": {"tokenUrl": "/oauth/token", "scopes": _SCOPES},
    },
}
