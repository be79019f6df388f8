"""Mounts the console on the app: its routers and the handler that answers a
ConsolePageError (raised by console and OAuth pages alike) as an HTML page."""

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import Response

from homebase.console import (
    apps,
    custom_fields,
    exports,
    home,
    imports,
    inbox,
    invitations,
    keys,
    login,
    members,
    password,
    people,
    person,
    tasks,
    webhooks,
)
from homebase.http.pages import ConsolePageError

ROUTERS = [
    login.router,
    home.router,
    keys.router,
    webhooks.router,
    apps.router,
    imports.router,
    exports.router,
    custom_fields.router,
    members.router,
    inbox.router,
    invitations.router,
    password.router,
    people.router,
    person.router,
    tasks.router,
]


async def _page_error(_request: Request, error: Exception) -> Response:
    assert isinstance(error, ConsolePageError)
    return error.response()


def install(app: FastAPI) -> None:
    for router in ROUTERS:
        app.include_router(router)
    app.add_exception_handler(ConsolePageError, _page_error)
