"""Access is declared on each route: `principal: ContactsRead`, where
`ContactsRead = Annotated[Principal, require(Scope.contacts_read)]`, requires a scope, and
`session: Tenant` is the only way a route reaches the database."""

from typing import Annotated

from fastapi import Depends, params
from starlette.requests import Request

from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import InsufficientScope
from homebase.runtime import get_runtime


class RequireScope:
    """A route dependency; `scope=None` means any valid credential: GET /ping, and
    GET /v1/events, whose items each need their own scope (events/service.py).

    Dependencies here are `async def` although they never await: FastAPI runs a plain
    `def` dependency in its thread pool, a thread hop per dependency per request."""

    def __init__(self, scope: Scope | None):
        self.scope = scope

    async def __call__(self, request: Request) -> Principal:
        principal: Principal = request.state.principal
        if self.scope is not None and not principal.has(self.scope):
            raise InsufficientScope(self.scope.value)
        return principal


class RequireAnyScope(RequireScope):
    """A route dependency for a route whose scope depends on what it addresses (an import
    needs contacts:write or leads:write by its `object`; a custom field contacts:* or
    deals:* by the field's): a credential holding none of `scopes` is refused, naming
    them, before the body is looked at; the endpoint then requires the one its request
    needs. The document lists each as an alternative (http/openapi_security.py)."""

    def __init__(self, *scopes: Scope):
        super().__init__(scopes[0])
        self.scopes = scopes

    async def __call__(self, request: Request) -> Principal:
        principal: Principal = request.state.principal
        if not any(principal.has(scope) for scope in self.scopes):
            raise InsufficientScope(" or ".join(scope.value for scope in self.scopes))
        return principal


def require_any(*scopes: Scope) -> params.Depends:
    """The dependency of `Annotated[Principal, require_any(scope, ...)]`."""
    dependency: params.Depends = Depends(RequireAnyScope(*scopes))
    return dependency


def require(scope: Scope | None) -> params.Depends:
    """The dependency of `Annotated[Principal, require(scope)]`."""
    dependency: params.Depends = Depends(RequireScope(scope))
    return dependency


async def tenant_session(request: Request) -> TenantSession:
    principal: Principal = request.state.principal
    return TenantSession(
        request.state.connection,
        principal.workspace_id,
        clock=get_runtime(request).clock,
        actor=principal.credential_id,
    )


Tenant = Annotated[TenantSession, Depends(tenant_session)]
AnyCredential = Annotated[Principal, require(None)]
