"""Each /v1 operation's security requirement in the OpenAPI document: an API key, or an
OAuth access token holding the scope the route declares (its RequireScope dependency, or
one of a RequireAnyScope's), so generated clients and integrators see which scope each
call needs."""

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import iter_route_contexts

from homebase.auth.dependencies import RequireAnyScope, RequireScope


def _calls(dependant: Dependant) -> Iterator[Any]:
    for dependency in dependant.dependencies:
        yield dependency.call
        yield from _calls(dependency)


def declared_scopes(dependant: Dependant) -> list[Any]:
    """The scopes a route's RequireScope dependencies name (None: any valid credential; a
    tuple: a RequireAnyScope's alternatives)."""
    return [
        call.scopes if isinstance(call, RequireAnyScope) else call.scope
        for call in _calls(dependant)
        if isinstance(call, RequireScope)
    ]


def add_operation_security(app: FastAPI, document: dict[str, Any]) -> None:
    paths = document.get("paths", {})
    for context in iter_route_contexts(app.routes):
        dependant = getattr(context.route, "dependant", None)
        operations = paths.get(context.path or "")
        if dependant is None or operations is None:
            continue
        scopes = declared_scopes(dependant)
        if len(scopes) != 1:
            continue
        scope = scopes[0]
        if isinstance(scope, tuple):
            oauth = [{"OAuth2": [one.value]} for one in scope]
        else:
            oauth = [{"OAuth2": [scope.value] if scope is not None else []}]
        for method in context.methods or ():
            operation = operations.get(method.lower())
            if operation is not None:
                operation["security"] = [{"ApiKey": []}, *oauth]
