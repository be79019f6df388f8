"""Members from the console: an invitation emailed through a real SMTP server (aiosmtpd
on loopback) with a one-time link, the invitee setting a password under the policy and
signing in, the link refused when reused or expired (a FrozenClock), refused invites,
removal with `remove-member`'s service, tenancy, CSRF and Origin; on SQLite and
PostgreSQL."""

import email
import re
from datetime import UTC, datetime
from urllib.parse import urlsplit

import pytest
from sqlalchemy import select

from homebase.kit.clock import FrozenClock
from homebase.kit.crypto import token_hash
from homebase.models import MemberInvitation
from tests.console_support import (
    PASSWORD,
    browser,
    csrf,
    make_member,
    member_browser,
    post_form,
    sign_in,
)
from tests.http.test_page_escaping import EVIL, assert_escaped
from tests.messaging_support import smtp_server_fixture, smtp_settings  # noqa: F401
from tests.support import make_tenant

MEMBERS = "/console/members"
INVITEE = "jordan@example.com"
NEW_PASSWORD = "a garden of seven lanterns"
FOREIGN = "https://evil.example"


@pytest.fixture
def settings_overrides(smtp_server):
    return smtp_settings(smtp_server)


@pytest.fixture
def clock(runtime) -> FrozenClock:
    """Frozen before any session opens, so moving it is the test's choice."""
    frozen = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    runtime.clock = frozen
    return frozen


@pytest.fixture
async def member(runtime, tenant, clock):
    return await make_member(runtime, tenant.id)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


async def invite(console, email_address=INVITEE, name="Jordan Lee"):
    return await post_form(
        console, MEMBERS, f"{MEMBERS}/invite", {"email": email_address, "name": name}
    )


def link_of(html: str) -> str:
    match = re.search(r'<p class="secret" id="invitation-link">([^<]+)</p>', html)
    assert match, "no invitation link on the page"
    return urlsplit(match.group(1)).path


async def join(app, path: str, password: str = NEW_PASSWORD, again: str | None = None):
    async with browser(app) as visitor:
        page = await visitor.get(path)
        if page.status_code != 200:
            return page
        return await visitor.post(
            path,
            data={
                "csrf_token": csrf(page.text),
                "new_password": password,
                "confirm_password": password if again is None else again,
            },
        )


async def test_an_invitation_round_trip_through_smtp(app, runtime, tenant, console, smtp_server):
    invited = await invite(console)
    assert invited.status_code == 200, invited.text
    assert invited.headers["cache-control"] == "no-store"
    assert "The invitation was emailed to them." in invited.text
    path = link_of(invited.text)
    assert path.startswith("/console/invitations/hbi_")
    # One mail, to the invitee, from the configured sender, holding the same link.
    [envelope] = smtp_server.mailbox.messages
    assert envelope.rcpt_tos == [INVITEE]
    assert envelope.mail_from == "agent@demo-realty.example"
    mail = email.message_from_bytes(envelope.content)
    assert mail["Subject"].startswith("Join ") and "List-Unsubscribe" not in mail
    assert path in mail.get_payload(decode=True).decode()
    # Only the hash is stored; the list shows the invitation as pending.
    token = path.rsplit("/", 1)[1]
    table = MemberInvitation.__table__
    async with runtime.db.transaction(write=False) as connection:
        stored = (await connection.execute(select(table))).mappings().one()
    assert stored["token_hash"] == token_hash(token) and token not in str(dict(stored))
    assert stored["workspace_id"] == tenant.id
    listing = await console.get(MEMBERS)
    assert f'<tr id="{stored["id"]}"><td>{INVITEE}</td>' in listing.text
    assert token not in listing.text  # shown once

    weak = await join(app, path, password="password1234")
    assert (
        weak.status_code == 400 and "The password is one of the most common passwords" in weak.text
    )
    differ = await join(app, path, again="something else entirely")
    assert differ.status_code == 400 and "differ" in differ.text
    done = await join(app, path)
    assert done.status_code == 200 and "you are now a member" in done.text

    async with browser(app) as fresh:
        signed = await sign_in(fresh, INVITEE, NEW_PASSWORD)
        assert signed.status_code == 303 and signed.headers["location"] == "/console"
        home = await fresh.get("/console")
        assert home.status_code == 200 and INVITEE in home.text
    members = (await tenant.get("/v1/members")).json()["data"]
    assert INVITEE in [row["email"] for row in members]

    again = await join(app, path)
    assert again.status_code == 410 and "already used" in again.text
    async with browser(app) as late:  # a form shown before the use, posted after it
        page = await late.get(path)
        assert page.status_code == 410


async def test_an_expired_link_is_refused(app, runtime, console, clock):
    path = link_of((await invite(console)).text)
    clock.advance(hours=72)
    expired = await join(app, path)
    assert expired.status_code == 410 and "expired" in expired.text


async def test_the_link_works_until_its_last_second(app, console, clock):
    path = link_of((await invite(console)).text)
    clock.advance(hours=72, seconds=-1)
    assert (await join(app, path)).status_code == 200


@pytest.mark.parametrize("settings_overrides", [{"member_invitation_ttl_hours": 1}])
async def test_the_validity_is_a_setting(app, console, clock):
    invited = await invite(console)
    assert "for 1 hours" in (await console.get(MEMBERS)).text
    clock.advance(hours=1)
    assert (await join(app, link_of(invited.text))).status_code == 410


async def test_unknown_links_and_refused_invitations(app, runtime, tenant, console):
    assert (await join(app, "/console/invitations/hbi_nothing")).status_code == 404
    assert (await join(app, "/console/invitations/not-a-token")).status_code == 404
    taken = await invite(console, "agent@example.com")  # the signed-in member's own email
    assert taken.status_code == 409 and "already a member" in taken.text
    bad = await invite(console, "not an email")
    assert bad.status_code == 400 and "email: is not one bare email address" in bad.text
    assert 'value="not an email"' in bad.text


async def test_an_email_the_server_refuses_still_shows_the_link(app, console, smtp_server):
    invited = await invite(console, "nobody@example.com")  # refused at RCPT
    assert invited.status_code == 200
    assert "The email could not be sent" in invited.text
    assert link_of(invited.text).startswith("/console/invitations/hbi_")


async def test_removal_follows_remove_member(app, runtime, tenant, other_tenant, console, member):
    other = await make_member(runtime, tenant.id, email="luis@example.com", name="Luis")
    theirs = await make_member(runtime, other_tenant.id, email="x@example.com", name="X")
    async with member_browser(app, runtime, other) as removed_browser:
        assert (await removed_browser.get("/console")).status_code == 200
        confirm = await console.get(f"{MEMBERS}/{other}/remove")
        assert confirm.status_code == 200 and "luis@example.com" in confirm.text
        done = await console.post(
            f"{MEMBERS}/{other}/remove", data={"csrf_token": csrf(confirm.text)}
        )
        assert done.status_code == 303 and done.headers["location"] == f"{MEMBERS}?done=removed"
        # Their session ended, and they cannot sign in.
        assert (await removed_browser.get("/console")).status_code == 303
    async with browser(app) as fresh:
        refused = await sign_in(fresh, "luis@example.com", PASSWORD)
        assert refused.status_code == 200 and "Incorrect email or password." in refused.text
    listed = {row["id"]: row for row in (await tenant.get("/v1/members")).json()["data"]}
    assert listed[other]["removed_at"] is not None
    token = csrf(confirm.text)
    assert (await console.get(f"{MEMBERS}/{other}/remove")).status_code == 404  # already gone
    assert (await console.get(f"{MEMBERS}/{theirs}/remove")).status_code == 404
    refused = await console.post(f"{MEMBERS}/{theirs}/remove", data={"csrf_token": token})
    assert refused.status_code == 404
    myself = await console.post(f"{MEMBERS}/{member}/remove", data={"csrf_token": token})
    assert myself.status_code == 409
    page = await console.get(MEMBERS)
    assert "There are no roles yet: every member is equal" in page.text
    assert f"/console/members/{member}/remove" not in page.text


async def test_a_removed_members_unused_invitations_stop_working(app, runtime, tenant, console):
    other = await make_member(runtime, tenant.id, email="luis@example.com", name="Luis")
    async with member_browser(app, runtime, other) as theirs:
        pending_path = link_of((await invite(theirs, "pending@example.com")).text)
        used_path = link_of((await invite(theirs, "used@example.com")).text)
    assert (await join(app, used_path)).status_code == 200  # used before the removal
    confirm = await console.get(f"{MEMBERS}/{other}/remove")
    done = await console.post(f"{MEMBERS}/{other}/remove", data={"csrf_token": csrf(confirm.text)})
    assert done.status_code == 303
    refused = await join(app, pending_path)
    assert refused.status_code == 410 and "expired" in refused.text
    listed = {row["email"] for row in (await tenant.get("/v1/members")).json()["data"]}
    assert "used@example.com" in listed and "pending@example.com" not in listed
    assert "pending@example.com" not in (await console.get(MEMBERS)).text


async def test_members_see_their_own_workspace_only(app, runtime, tenant, other_tenant, console):
    await make_member(runtime, other_tenant.id, email="hidden@example.com", name="Hidden")
    async with member_browser(
        app, runtime, await make_member(runtime, other_tenant.id, email="o@example.com")
    ) as theirs:
        await invite(theirs, "their-invitee@example.com")
    await invite(console, "my-invitee@example.com")
    page = (await console.get(MEMBERS)).text
    assert "agent@example.com" in page and "my-invitee@example.com" in page
    assert "hidden@example.com" not in page and "their-invitee@example.com" not in page


async def test_every_members_form_refuses_a_bad_token_and_a_foreign_origin(
    app, runtime, tenant, console
):
    other = await make_member(runtime, tenant.id, email="luis@example.com", name="Luis")
    token = csrf((await console.get(MEMBERS)).text)
    for action, data in (
        (f"{MEMBERS}/invite", {"email": INVITEE, "name": "J"}),
        (f"{MEMBERS}/{other}/remove", {}),
    ):
        assert (
            await console.post(action, data={"csrf_token": "forged", **data})
        ).status_code == 403
        foreign = await console.post(
            action, data={"csrf_token": token, **data}, headers={"Origin": FOREIGN}
        )
        assert foreign.status_code == 403, action
    assert (await console.get(f"{MEMBERS}/{other}/remove")).status_code == 200  # not removed
    assert INVITEE not in (await console.get(MEMBERS)).text  # not invited

    path = link_of((await invite(console)).text)
    async with browser(app) as visitor:
        page = await visitor.get(path)
        data = {"new_password": NEW_PASSWORD, "confirm_password": NEW_PASSWORD}
        forged = await visitor.post(path, data={"csrf_token": "forged", **data})
        assert forged.status_code == 403
        foreign = await visitor.post(
            path, data={"csrf_token": csrf(page.text), **data}, headers={"Origin": FOREIGN}
        )
        assert foreign.status_code == 403
        # A token made for another invitation's link does not fit this one.
        other_path = link_of((await invite(console, "other@example.com")).text)
        mixed = await visitor.post(other_path, data={"csrf_token": csrf(page.text), **data})
        assert mixed.status_code == 403
        assert (await visitor.get(path)).status_code == 200  # still unused


async def test_hostile_names_are_escaped(app, runtime, client, clock, smtp_server):
    hostile = await make_tenant(runtime, client, name="Realty " + EVIL)
    inviter = await make_member(runtime, hostile.id, name="Agent " + EVIL)
    async with member_browser(app, runtime, inviter) as console:
        invited = await invite(console, name=EVIL)
        assert_escaped(invited, times=2)  # the name in the pending list; the form's echo
        path = link_of(invited.text)
    async with browser(app) as visitor:
        assert_escaped(await visitor.get(path), times=2)  # workspace and name


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_unauthenticated_per_min": 2}])
async def test_unknown_links_count_against_the_address_s_budget(app, console):
    path = link_of((await invite(console)).text)
    async with browser(app) as visitor:
        for _ in range(2):
            assert (await visitor.get("/console/invitations/hbi_guess")).status_code == 404
        refused = await visitor.get(path)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0


async def test_inviting_a_removed_member_brings_them_back(app, runtime, tenant, console):
    removed = await make_member(runtime, tenant.id, email="luis@example.com", name="Luis")
    page = await console.get(f"{MEMBERS}/{removed}/remove")
    await console.post(f"{MEMBERS}/{removed}/remove", data={"csrf_token": csrf(page.text)})
    path = link_of((await invite(console, "luis@example.com", "Luis Again")).text)
    assert (await join(app, path)).status_code == 200
    listed = {row["id"]: row for row in (await tenant.get("/v1/members")).json()["data"]}
    assert listed[removed]["removed_at"] is None and listed[removed]["name"] == "Luis Again"
    async with browser(app) as fresh:
        assert (await sign_in(fresh, "luis@example.com", NEW_PASSWORD)).status_code == 303
