"""The unauthenticated budget: per client address, a minute's allowance of failures.

Counted (and nothing else): API requests answered 401, failed client authentication at
/oauth/token and /oauth/revoke (oauth/forms.py authenticate_client), failed console
sign-ins. A request with a valid
credential is never counted nor held back, so callers check the credential first where
that is cheap (one indexed lookup, one SHA-256) and count only when it fails; the
console, where the check is a deliberately slow password hash, peeks first and refuses an
address already over budget before hashing. Counts share the limiter of the per-key
limits (Redis, the host file or memory) under their own namespace, `unauth:<address>`
(IPv6 by /64). The decision goes on request.state, so the answer carries the
X-RateLimit-* headers of this budget (http/middleware.py).
"""

from starlette.requests import HTTPConnection

from homebase.kit.client_address import budget_key, client_address
from homebase.metrics import rate_limit_decision
from homebase.ratelimit import Decision
from homebase.runtime import get_runtime


def request_client_address(request: HTTPConnection) -> str:
    """The client's address for limits and logs (HOMEBASE_TRUSTED_PROXIES decides
    whether X-Forwarded-For is believed)."""
    cached: str | None = request.scope.get("homebase.client_address")
    if cached is not None:
        return cached
    settings = get_runtime(request).settings
    address = client_address(
        request.client.host if request.client else None,
        request.headers.getlist("x-forwarded-for"),
        settings.trusted_networks,
    )
    request.scope["homebase.client_address"] = address
    return address


def _bucket(request: HTTPConnection) -> tuple[str, int]:
    limit = get_runtime(request).settings.rate_limit_unauthenticated_per_min
    return f"unauth:{budget_key(request_client_address(request))}", limit


async def count_failure(request: HTTPConnection) -> Decision:
    """Counts one failure of this address; `allowed` is False once it is over budget."""
    decision = await get_runtime(request).limiter.hit(*_bucket(request))
    request.state.rate_limit = decision
    rate_limit_decision("unauthenticated", decision.allowed)
    return decision


async def over_budget(request: HTTPConnection) -> Decision | None:
    """The refusal, when this address has used up its budget (counts nothing)."""
    decision = await get_runtime(request).limiter.peek(*_bucket(request))
    if decision.allowed:
        return None
    request.state.rate_limit = decision
    rate_limit_decision("unauthenticated", False)
    return decision
