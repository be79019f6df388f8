"""Helpers for the console tests: members with passwords, signed-in clients, form tokens."""

import functools
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from html import unescape

import httpx

from homebase.console.sessions import SESSION_COOKIE, open_session
from homebase.db.tenancy import TenantSession
from homebase.kit.passwords import hash_password
from homebase.models import User
from homebase.runtime import Runtime
from homebase.workspaces import service as workspaces

PASSWORD = "correct horse battery staple"


async def make_member(
    runtime: Runtime,
    workspace_id: str,
    email: str = "agent@example.com",
    password: str | None = PASSWORD,
    name: str = "Agent Smith",
) -> str:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        user = await workspaces.create_user(session, email=email, name=name)
        if password:  # one scrypt per password per test run, not per member
            users = User.__table__
            await session.execute(
                session.update(users)
                .where(users.c.id == user["id"])
                .values(password_hash=_hashed(password))
            )
    return user["id"]


@functools.cache
def _hashed(password: str) -> str:
    return hash_password(password)


@asynccontextmanager
async def browser(
    app, cookie: str | None = None, base_url: str = "http://testserver"
) -> AsyncIterator[httpx.AsyncClient]:
    """A client with its own cookie jar (one per simulated browser)."""
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=base_url) as client:
        if cookie:
            client.cookies.set(SESSION_COOKIE, cookie, domain="testserver.local", path="/")
        yield client


@asynccontextmanager
async def member_browser(app, runtime: Runtime, user_id: str) -> AsyncIterator[httpx.AsyncClient]:
    async with browser(app, await open_session(runtime, user_id)) as client:
        yield client


def form_value(html: str, name: str) -> str:
    match = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', html)
    assert match, f"no input {name} in page"
    return unescape(match.group(1))


def csrf(html: str) -> str:
    return form_value(html, "csrf_token")


async def post_form(
    client: httpx.AsyncClient, page: str, action: str, data: dict
) -> httpx.Response:
    """GET `page`, then POST `data` to `action` with the page's CSRF token."""
    shown = await client.get(page)
    assert shown.status_code == 200, shown.text
    return await client.post(action, data={"csrf_token": csrf(shown.text), **data})


async def sign_in(
    client: httpx.AsyncClient, email: str, password: str = PASSWORD, next_url: str = "/console"
) -> httpx.Response:
    page = await client.get("/console/login", params={"next": next_url})
    return await client.post(
        "/console/login",
        data={
            "email": email,
            "password": password,
            "next": form_value(page.text, "next"),
            "csrf_token": csrf(page.text),
        },
    )
