"""The request line: one log line at the end of every HTTP request (uvicorn's access log
is off; this replaces it), and the log context of everything logged while it is served.

Fields: request_id, workspace_id, credential_kind and credential_id (the key's or token's
id, never the secret), client (HOMEBASE_TRUSTED_PROXIES decides whether X-Forwarded-For is
believed), method, route (the matched route's template, `/v1/contacts/{contact_id}`, never
the path with its ids; `(unmatched)` when no route matched), status, duration_ms.

It sits inside RequestContextMiddleware (http/middleware.py), which has given the request
its id by then; an exception that escapes is logged here as status 500, which is what that
middleware answers. Each request runs in its own task, so the context bound here (and by
the /v1 route class once the credential is known) never leaks into another request.
"""

import logging
import time
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from homebase import tracing
from homebase.http.unauthenticated import request_client_address
from homebase.kit import logs

log = logging.getLogger("homebase.request")


def route_template(scope: Scope) -> str:
    """The matched route's template with the prefixes it was included under: a route
    knows its own template (`/contacts/{id}`) but not the router prefix (`/v1`), which is
    static, so it is taken from the path's leading segments."""
    template = getattr(scope.get("route"), "path", None)
    if not isinstance(template, str):
        return "(unmatched)"
    path = scope.get("path", "")
    if ":path}" in template:  # a parameter that spans segments: no static prefix to count
        return template
    extra = path.count("/") - template.count("/")
    if extra <= 0:
        return template
    return "/".join(path.split("/")[: extra + 1]) + template


def bind_principal(principal: Any) -> None:
    """Called once the credential is known (http/v1_route.py): later lines carry it."""
    logs.bind(
        workspace_id=principal.workspace_id,
        credential_kind=principal.credential_kind,
        credential_id=principal.credential_id,
    )


class RequestLogMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        state = scope.setdefault("state", {})
        logs.bind(request_id=state.get("request_id"), method=scope.get("method"))
        if tracing.ACTIVE:  # the request's server span carries the ids its log line does
            tracing.annotate_request(state.get("request_id"))
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                # Now, not at the end: the server span ends with the response's last byte.
                if tracing.ACTIVE:
                    tracing.annotate_principal(state.get("principal"))
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        except Exception:
            status = 500
            raise
        finally:
            self._line(scope, state, status, started)

    @staticmethod
    def _line(scope: Scope, state: dict[str, Any], status: int, started: float) -> None:
        level = logging.ERROR if status >= 500 else logging.INFO
        if not log.isEnabledFor(level):  # (--log-level warning): nothing to gather
            return
        principal = state.get("principal")
        if principal is not None and not logs.context().get("credential_id"):
            bind_principal(principal)
        logs.bind(route=route_template(scope), status=status)
        try:
            client = request_client_address(HTTPConnection(scope))
        except Exception:  # no runtime on this app (a bare test app): the peer then
            client = (scope.get("client") or ("", 0))[0]
        logs.event(
            log,
            "request",
            level=level,
            client=client,
            duration_ms=round((time.perf_counter() - started) * 1000, 2),
        )
