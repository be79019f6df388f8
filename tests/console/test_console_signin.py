"""Console sign-in, sessions, sign-out and CSRF, over HTTP on SQLite and PostgreSQL."""

from datetime import timedelta

import pytest
from sqlalchemy import select

from homebase.console import signin
from homebase.console.sessions import (
    ABSOLUTE_LIFETIME,
    IDLE_TIMEOUT,
    LOGIN_COOKIE,
    SESSION_COOKIE,
    login_redirect,
    safe_next,
)
from homebase.kit.clock import FrozenClock
from homebase.kit.crypto import token_hash
from homebase.models import ConsoleSession
from homebase.ratelimit import MemoryLimiter
from tests.console_support import (
    PASSWORD,
    browser,
    csrf,
    form_value,
    make_member,
    member_browser,
    sign_in,
)

sessions_table = ConsoleSession.__table__


async def test_sign_in_sets_a_secure_session_cookie_and_opens_the_console(app, runtime, tenant):
    await make_member(runtime, tenant.id, "Agent@Example.com")
    async with browser(app) as client:
        page = await client.get("/console/login")
        assert page.status_code == 200
        assert 'name="email"' in page.text and 'name="password"' in page.text
        response = await sign_in(client, "agent@example.com", next_url="/console/api-keys")
        assert response.status_code == 303
        assert response.headers["location"] == "/console/api-keys"
        cookie = next(
            h for h in response.headers.get_list("set-cookie") if h.startswith(SESSION_COOKIE)
        )
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # public URL is http in tests
        token = client.cookies[SESSION_COOKIE]
        home = await client.get("/console")
        assert home.status_code == 200 and "Test Realty" in home.text
        assert "agent@example.com" in home.text
    async with runtime.db.transaction(write=False) as connection:
        row = (await connection.execute(select(sessions_table))).one()
    assert row.token_hash == token_hash(token) and token not in str(tuple(row))


@pytest.mark.parametrize("settings_overrides", [{"public_url": "https://crm.example.com"}])
async def test_cookie_is_secure_when_the_public_url_is_https(app, runtime, tenant):
    await make_member(runtime, tenant.id)
    async with browser(app, base_url="https://testserver") as client:
        response = await sign_in(client, "agent@example.com")
        assert response.status_code == 303
    cookies = response.headers.get_list("set-cookie")
    assert any(h.startswith(SESSION_COOKIE) and "Secure" in h for h in cookies)


@pytest.mark.parametrize(
    "email,password", [("agent@example.com", "wrong password"), ("nobody@example.com", PASSWORD)]
)
async def test_wrong_password_and_unknown_email_give_the_same_generic_answer(
    app, runtime, tenant, email, password
):
    await make_member(runtime, tenant.id)
    async with browser(app) as client:
        response = await sign_in(client, email, password)
        assert response.status_code == 200
        assert "Incorrect email or password." in response.text
        assert SESSION_COOKIE not in client.cookies
        assert f'value="{email}"' in response.text  # the form is shown again
        assert (await client.get("/console")).status_code == 303


async def test_member_without_password_cannot_sign_in(app, runtime, tenant):
    await make_member(runtime, tenant.id, password=None)
    async with browser(app) as client:
        response = await sign_in(client, "agent@example.com", "")
        assert response.status_code == 400 and "Required: password" in response.text
        response = await sign_in(client, "agent@example.com", "anything")
        assert "Incorrect email or password." in response.text


async def test_sign_in_is_throttled_per_email_and_address(app, runtime, tenant, monkeypatch):
    monkeypatch.setattr(signin, "LOGIN_ATTEMPTS_PER_MIN", 3)  # fewer scrypt runs
    await make_member(runtime, tenant.id)
    runtime.limiter = MemoryLimiter(clock=lambda: 6_000.0)  # one window throughout
    async with browser(app) as client:
        for _ in range(signin.LOGIN_ATTEMPTS_PER_MIN):
            await sign_in(client, "agent@example.com", "wrong")
        response = await sign_in(client, "agent@example.com")
        assert response.status_code == 429 and "Too many sign-in attempts" in response.text
        assert SESSION_COOKIE not in client.cookies
        other_email = await sign_in(client, "someone.else@example.com")
        assert other_email.status_code == 200  # another email is not held back


async def test_one_email_in_two_workspaces_chooses_the_workspace(
    app, runtime, tenant, other_tenant
):
    await make_member(runtime, tenant.id)
    await make_member(runtime, other_tenant.id)
    async with browser(app) as client:
        choice = await sign_in(client, "agent@example.com")
        assert choice.status_code == 200 and "Choose a workspace" in choice.text
        assert "Test Realty" in choice.text and "Other Realty" in choice.text
        assert SESSION_COOKIE not in client.cookies
        user_ids = [value for value in _radio_values(choice.text)]
        async with runtime.db.transaction(write=False) as connection:
            from homebase.models import User

            users = User.__table__
            other_user = (
                await connection.execute(
                    select(users.c.id).where(users.c.workspace_id == other_tenant.id)
                )
            ).scalar_one()
        assert other_user in user_ids
        data = {
            "csrf_token": csrf(choice.text),
            "pick": form_value(choice.text, "pick"),
            "next": "/console",
            "user_id": "usr_forged",
        }
        refused = await client.post("/console/login/workspace", data=data)
        assert refused.status_code == 400 and SESSION_COOKIE not in client.cookies
        chosen = await client.post("/console/login/workspace", data={**data, "user_id": other_user})
        assert chosen.status_code == 303
        assert "Other Realty" in (await client.get("/console")).text


def _radio_values(html: str) -> list[str]:
    import re

    return re.findall(r'type="radio" name="user_id" value="([^"]+)"', html)


async def test_only_the_matching_workspace_password_signs_in(app, runtime, tenant, other_tenant):
    await make_member(runtime, tenant.id, password="first password")
    await make_member(runtime, other_tenant.id, password="second password")
    async with browser(app) as client:
        response = await sign_in(client, "agent@example.com", "second password")
        assert response.status_code == 303
        assert "Other Realty" in (await client.get("/console")).text


async def test_sign_in_refuses_a_post_without_the_login_csrf_token(app, runtime, tenant):
    await make_member(runtime, tenant.id)
    async with browser(app) as client:
        page = await client.get("/console/login")
        for token in (None, "forged", csrf(page.text) + "x"):
            data = {"email": "agent@example.com", "password": PASSWORD}
            if token is not None:
                data["csrf_token"] = token
            response = await client.post("/console/login", data=data)
            assert response.status_code == 403 and "Request refused" in response.text
        client.cookies.delete(LOGIN_COOKIE)
        response = await client.post(
            "/console/login",
            data={
                "email": "agent@example.com",
                "password": PASSWORD,
                "csrf_token": csrf(page.text),
            },
        )
        assert response.status_code == 403 and SESSION_COOKIE not in client.cookies


async def test_a_foreign_origin_is_refused_even_with_a_token(app, runtime, tenant):
    await make_member(runtime, tenant.id)
    async with browser(app) as client:
        page = await client.get("/console/login")
        response = await client.post(
            "/console/login",
            headers={"Origin": "https://evil.example"},
            data={
                "email": "agent@example.com",
                "password": PASSWORD,
                "csrf_token": csrf(page.text),
            },
        )
        assert response.status_code == 403


@pytest.mark.parametrize(
    "next_url,expected",
    [
        ("/console/webhooks?x=1", "/console/webhooks?x=1"),
        ("//evil.example/", "/console"),
        ("/\\evil.example", "/console"),
        ("https://evil.example/", "/console"),
        ("/\t/evil.example", "/console"),
        ("javascript:alert(1)", "/console"),
        ("", "/console"),
    ],
)
def test_next_accepts_only_local_paths(next_url, expected):
    assert safe_next(next_url) == expected


def test_login_redirect_quotes_the_target():
    response = login_redirect("/oauth/authorize?client_id=a&state=b c")
    assert response.status_code == 303
    assert response.headers["location"] == (
        "/console/login?next=%2Foauth%2Fauthorize%3Fclient_id%3Da%26state%3Db%20c"
    )


async def test_pages_redirect_to_sign_in_and_back(app, runtime, tenant):
    await make_member(runtime, tenant.id)
    async with browser(app) as client:
        response = await client.get("/console?tab=2")
        assert response.status_code == 303
        assert response.headers["location"] == "/console/login?next=%2Fconsole%3Ftab%3D2"
        signed = await sign_in(client, "agent@example.com", next_url="/console?tab=2")
        assert signed.headers["location"] == "/console?tab=2"


@pytest.fixture
def clock():
    return FrozenClock()


async def test_session_expires_after_idle_time(app, runtime, tenant, clock):
    runtime.clock = clock
    user = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, user) as client:
        clock.advance(seconds=IDLE_TIMEOUT.total_seconds() - 60)
        assert (await client.get("/console")).status_code == 200  # also refreshes last seen
        clock.advance(seconds=IDLE_TIMEOUT.total_seconds() - 1)
        assert (await client.get("/console")).status_code == 200
        clock.advance(seconds=IDLE_TIMEOUT.total_seconds())
        assert (await client.get("/console")).status_code == 303


async def test_session_ends_at_its_absolute_lifetime_however_active(app, runtime, tenant, clock):
    runtime.clock = clock
    user = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, user) as client:
        step = IDLE_TIMEOUT / 2
        elapsed = timedelta(0)
        while elapsed + step < ABSOLUTE_LIFETIME:
            clock.advance(seconds=step.total_seconds())
            elapsed += step
            assert (await client.get("/console")).status_code == 200
        clock.advance(seconds=(ABSOLUTE_LIFETIME - elapsed).total_seconds())
        assert (await client.get("/console")).status_code == 303


async def test_sign_out_needs_csrf_and_ends_the_session(app, runtime, tenant):
    user = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, user) as client:
        token = client.cookies[SESSION_COOKIE]
        home = await client.get("/console")
        refused = await client.post("/console/logout", data={"csrf_token": "nope"})
        assert refused.status_code == 403
        assert (await client.get("/console")).status_code == 200
        response = await client.post("/console/logout", data={"csrf_token": csrf(home.text)})
        assert response.status_code == 303 and response.headers["location"] == "/console/login"
        assert SESSION_COOKIE not in client.cookies
    async with browser(app, token) as replay:  # the old cookie is dead server-side too
        assert (await replay.get("/console")).status_code == 303


async def test_a_csrf_token_belongs_to_its_session(app, runtime, tenant):
    user = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, user) as first:
        first_token = csrf((await first.get("/console")).text)
    async with member_browser(app, runtime, user) as second:
        response = await second.post("/console/logout", data={"csrf_token": first_token})
        assert response.status_code == 403


async def test_forged_or_garbage_session_cookies_are_ignored(app, runtime, tenant):
    for cookie in ("hbs_" + "a" * 40, "garbage", "hbs_" + "x" * 500):
        async with browser(app, cookie) as client:
            assert (await client.get("/console")).status_code == 303


async def test_a_sign_in_email_holding_nul_is_a_400_page(app, runtime, tenant):
    await make_member(runtime, tenant.id)
    async with browser(app) as client:
        response = await sign_in(client, "ana\x00@example.com")
        assert response.status_code == 400, response.text
        assert "must not contain the NUL character (U+0000): email" in response.text
        assert SESSION_COOKIE not in client.cookies
