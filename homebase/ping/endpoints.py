from pydantic import BaseModel, ConfigDict, Field

from homebase import API_VERSION
from homebase.auth.dependencies import AnyCredential
from homebase.http.router import v1_router
from homebase.kit.openapi import error_responses
from homebase.kit.responses import JSONResponse, json_response

router = v1_router(tags=["ping"])


class Ping(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "ok": True,
                    "tenant_id": "wsp_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "credential": "api_key",
                    "credential_id": "key_01jd3v6k8h2k3m4n5p6q7r8s9t",
                    "scopes": ["contacts:read", "contacts:write"],
                    "rate_limit_per_min": 120,
                    "api_version": "v1",
                }
            ]
        }
    )

    ok: bool
    tenant_id: str = Field(description="The workspace this credential acts on.")
    credential: str = Field(description="Kind of credential: api_key or oauth_token.")
    credential_id: str
    scopes: list[str] = Field(description="Scopes as granted (implied scopes not listed).")
    rate_limit_per_min: int
    api_version: str


@router.get(
    "/ping",
    response_model=Ping,
    summary="Verify a credential",
    response_description="The credential is valid; what it resolves to.",
    description="Succeeds for any valid credential, whatever its scopes. A query string "
    "holding U+0000 is refused (400), as on every /v1 operation.",
    responses=error_responses(400, 401, 429),
)
async def ping(principal: AnyCredential) -> JSONResponse:
    return json_response(
        {
            "ok": True,
            "tenant_id": principal.workspace_id,
            "credential": principal.credential_kind,
            "credential_id": principal.credential_id,
            "scopes": list(principal.granted_scopes),
            "rate_limit_per_min": principal.rate_limit_per_min,
            "api_version": API_VERSION,
        }
    )
