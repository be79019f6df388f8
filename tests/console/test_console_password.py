"""GET/POST /console/password: the member's own password, current + new twice, CSRF like
every console form; the policy applies; the change ends the member's other sessions and
keeps this one."""

import pytest

from tests.console_support import (
    PASSWORD,
    browser,
    csrf,
    make_member,
    member_browser,
    post_form,
    sign_in,
)

PAGE = "/console/password"
NEW = "a much better passphrase"


@pytest.fixture
async def member(runtime, tenant):
    return await make_member(runtime, tenant.id)


def change(current: str = PASSWORD, new: str = NEW, confirm: str | None = None) -> dict:
    return {
        "current_password": current,
        "new_password": new,
        "confirm_password": new if confirm is None else confirm,
    }


async def test_change_keeps_this_session_and_ends_the_others(app, runtime, member):
    async with (
        member_browser(app, runtime, member) as this,
        member_browser(app, runtime, member) as other,
    ):
        page = await this.get("/console")
        assert f'href="{PAGE}"' in page.text  # in the navigation
        shown = await this.get(PAGE)
        assert shown.status_code == 200 and shown.headers["cache-control"] == "no-store"
        changed = await post_form(this, PAGE, PAGE, change())
        assert (changed.status_code, changed.headers["location"]) == (303, f"{PAGE}?done=changed")
        assert "Your password was changed." in (await this.get(changed.headers["location"])).text
        assert (await this.get("/console")).status_code == 200
        assert (await other.get("/console")).status_code == 303  # signed out
    async with browser(app) as fresh:
        assert (
            "Incorrect email or password."
            in (await sign_in(fresh, "agent@example.com", PASSWORD)).text
        )
        assert (await sign_in(fresh, "agent@example.com", NEW)).status_code == 303


@pytest.mark.parametrize(
    "form, message",
    [
        (change(current="not my password"), "The current password is incorrect."),
        (change(confirm=NEW + "!"), "The new password and its repetition differ."),
        (change(new="too-short"), "The new password must be at least 12 characters."),
        (change(new="Agent@Example.com "), "The new password must not be the email address."),
        (change(new="QWERTYUIOP123"), "The new password is one of the most common passwords"),
        (change(current=""), "Required: current password."),
    ],
    ids=["wrong current", "differ", "short", "email", "common", "missing"],
)
async def test_a_refused_change_names_the_rule_and_changes_nothing(
    app, runtime, member, form, message
):
    async with (
        member_browser(app, runtime, member) as this,
        member_browser(app, runtime, member) as other,
    ):
        refused = await post_form(this, PAGE, PAGE, form)
        assert refused.status_code == 400 and message in refused.text, refused.text
        assert (await other.get("/console")).status_code == 200  # nothing ended
    async with browser(app) as fresh:
        assert (await sign_in(fresh, "agent@example.com", PASSWORD)).status_code == 303


async def test_the_form_needs_its_csrf_token_and_a_session(app, runtime, member, client):
    async with member_browser(app, runtime, member) as this:
        refused = await this.post(PAGE, data={**change(), "csrf_token": "forged"})
        assert refused.status_code == 403
        shown = await this.get(PAGE)
        cross_site = await this.post(
            PAGE,
            data={**change(), "csrf_token": csrf(shown.text)},
            headers={"Origin": "https://evil.example"},
        )
        assert cross_site.status_code == 403
    anonymous = await client.post(PAGE, data=change())
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith(
        "/console/login"
    )
    async with browser(app) as fresh:
        assert (await sign_in(fresh, "agent@example.com", PASSWORD)).status_code == 303
