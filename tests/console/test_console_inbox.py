"""The console's inbox: conversations unread first then by latest message, read state
per member, a thread with every message (the AI's marked, refused attempts with their
reason), a reply through POST /v1/messages's path and gates that pauses the AI, handing
back to the AI, tenancy, CSRF and Origin, full addresses of the own workspace only; on
SQLite and PostgreSQL."""

import re

import pytest
from sqlalchemy import select

from homebase.console import inbox
from homebase.db.tenancy import TenantSession
from homebase.inbox import repository
from homebase.models import ConversationRead
from tests.console_support import csrf, make_member, member_browser
from tests.http.test_page_escaping import EVIL, assert_escaped
from tests.messaging_support import (
    LOS_ANGELES,
    NEW_YORK,
    NORTH_DAKOTA,
    TOKEN,
    add_sender,
    freeze,
    reply,
)

DAYTIME = 18  # UTC: daytime in every US zone
INBOX = "/console/inbox"
FOREIGN = "https://evil.example"


@pytest.fixture
def settings_overrides():
    return {"twilio_auth_token": TOKEN}


@pytest.fixture
async def ready(runtime, tenant):
    """Daytime, an approved sender: frozen before any session opens (an idle session
    would end when the clock jumps)."""
    freeze(runtime, DAYTIME)
    await add_sender(runtime, tenant)
    return tenant


@pytest.fixture
async def member(runtime, ready):
    return await make_member(runtime, ready.id)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


@pytest.fixture
async def second(app, runtime, ready):
    """Another member of the same workspace, with a browser of their own."""
    user = await make_member(runtime, ready.id, email="second@example.com", name="Second")
    async with member_browser(app, runtime, user) as client:
        yield client


async def person(tenant, phone, first_name, email=None):
    body = {"first_name": first_name, "phone": phone}
    if email:
        body["email"] = email
    response = await tenant.post("/v1/contacts", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def listed(html: str) -> list[tuple[str, bool]]:
    """The inbox page's conversations in order: (contact id, marked unread)."""
    found = re.findall(r'<li id="(con_[^"]+)"( class="unread")?>', html)
    return [(contact_id, bool(unread)) for contact_id, unread in found]


async def inbox_of(client) -> list[tuple[str, bool]]:
    response = await client.get(INBOX)
    assert response.status_code == 200, response.text
    return listed(response.text)


async def test_unread_first_then_latest_and_read_state_per_member(ready, client, console, second):
    dana = await person(ready, NEW_YORK, "Dana")
    luis = await person(ready, LOS_ANGELES, "Luis")
    kim = await person(ready, NORTH_DAKOTA, "Kim")
    for phone in (NEW_YORK, LOS_ANGELES, NORTH_DAKOTA):
        assert (
            await reply(client, phone, "Is the house on Elm still for sale?")
        ).status_code == 200
    page = await console.get(INBOX)
    assert 'href="/console/inbox" aria-current="page"' in page.text
    assert listed(page.text) == [(kim, True), (luis, True), (dana, True)]

    opened = await console.get(f"{INBOX}/{kim}")
    assert opened.status_code == 200
    assert 'href="/console/inbox" aria-current="true"' in opened.text
    assert await inbox_of(console) == [(luis, True), (dana, True), (kim, False)]
    # The other member has read nothing.
    assert await inbox_of(second) == [(kim, True), (luis, True), (dana, True)]

    assert (await console.get(f"{INBOX}/{dana}")).status_code == 200
    assert await inbox_of(console) == [(luis, True), (kim, False), (dana, False)]
    # A new message makes a read conversation unread again, and latest.
    assert (await reply(client, NEW_YORK, "Also, is there parking?")).status_code == 200
    assert await inbox_of(console) == [(dana, True), (luis, True), (kim, False)]


async def test_the_list_pages_through_unread_and_read_alike(ready, client, console, monkeypatch):
    ids = []
    for index, phone in enumerate(("+12125550101", "+12125550102", "+12125550103")):
        ids.append(await person(ready, phone, f"Buyer{index}"))
        assert (await reply(client, phone, "Hello there")).status_code == 200
    for index, phone in enumerate(("+12125550104", "+12125550105")):
        contact_id = await person(ready, phone, f"Seller{index}")
        ids.append(contact_id)
        assert (await reply(client, phone, "Hello there")).status_code == 200
        assert (await console.get(f"{INBOX}/{contact_id}")).status_code == 200
    expected = [ids[2], ids[1], ids[0], ids[4], ids[3]]  # unread newest first, then read
    monkeypatch.setattr(inbox, "PAGE_SIZE", 2)
    seen, url, pages = [], INBOX, 0
    while url:
        response = await console.get(url)
        assert response.status_code == 200
        seen += [contact_id for contact_id, _ in listed(response.text)]
        older = re.search(r'<a href="(/console/inbox\?cursor=[^"]+)">Older</a>', response.text)
        url = older.group(1).replace("&amp;", "&") if older else None
        pages += 1
    assert seen == expected and pages == 3


async def test_a_thread_shows_every_message_the_ai_s_and_refused_attempts(
    runtime, ready, client, console
):
    dana = await person(ready, NEW_YORK, "Dana", email="dana@example.com")
    assert (await reply(client, NEW_YORK, "Can I see it Saturday?")).status_code == 200
    ai = await ready.post(
        "/v1/messages",
        json={
            "channel": "sms",
            "contact_id": dana,
            "body": "Saturday at 10 works. QUINCE-4410-HERON",
            "ai_generated": True,
        },
    )
    assert ai.status_code == 201, ai.text
    email = await ready.post(
        "/v1/messages",
        json={
            "channel": "email",
            "contact_id": dana,
            "subject": "The listing",
            "body": "Attached.",
        },
    )
    assert email.status_code == 201, email.text
    assert (await reply(client, NEW_YORK, "STOP")).status_code == 200
    refused = await ready.post(
        "/v1/messages", json={"channel": "sms", "contact_id": dana, "body": "One more thing"}
    )
    assert refused.status_code == 422
    page = (await console.get(f"{INBOX}/{dana}")).text
    items = dict(re.findall(r'<li id="(msg_[^"]+)" class="([^"]+)">', page))
    assert len(items) == 6  # the STOP, and its confirmation
    assert items[ai.json()["id"]] == "outbound"
    assert items[refused.json()["error"]["details"]["message_id"]] == "outbound failed"
    assert "QUINCE-4410-HERON" in page and "written by the AI" in page
    assert "Can I see it Saturday?" in page and "The listing" in page
    assert "Refused by the opted_out gate: Blocked (opted_out)" in page
    # Full addresses: the workspace's own contact.
    assert NEW_YORK in page and "dana@example.com" in page


async def test_a_reply_passes_the_gates_pauses_the_ai_and_hands_back(
    runtime, ready, client, console
):
    dana = await person(ready, NEW_YORK, "Dana")
    assert (await reply(client, NEW_YORK, "Is it still available?")).status_code == 200
    page = await console.get(f"{INBOX}/{dana}")
    token = csrf(page.text)
    sent = await console.post(
        f"{INBOX}/{dana}/reply",
        data={"csrf_token": token, "channel": "sms", "body": "Yes! Want a tour?"},
    )
    assert sent.status_code == 303, sent.text
    assert sent.headers["location"] == f"{INBOX}/{dana}?done=sent"
    messages = (await ready.get("/v1/messages", params={"contact_id": dana})).json()["data"]
    assert messages[0]["body"] == "Yes! Want a tour?" and messages[0]["status"] == "QUEUED"
    assert messages[0]["direction"] == "OUTBOUND" and messages[0]["ai_generated"] is False
    contact = (await ready.get(f"/v1/contacts/{dana}")).json()
    assert contact["ai_auto_response_paused"] is True
    assert contact["ai_auto_response_paused_reason"] == "human_message"
    shown = await console.get(sent.headers["location"])
    assert "Your reply is queued" in shown.text and "Hand back to the AI" in shown.text
    assert "paused: a person sent a message" in shown.text
    assert "· by Agent Smith ·" in shown.text  # the member who replied

    back = await console.post(f"{INBOX}/{dana}/ai/resume", data={"csrf_token": token})
    assert back.status_code == 303 and back.headers["location"] == f"{INBOX}/{dana}?done=resumed"
    contact = (await ready.get(f"/v1/contacts/{dana}")).json()
    assert contact["ai_auto_response_paused"] is False
    assert "Hand back to the AI" not in (await console.get(back.headers["location"])).text


async def test_a_refused_reply_is_shown_with_its_reason_and_pauses_nothing(ready, client, console):
    dana = await person(ready, NEW_YORK, "Dana")
    assert (await reply(client, NEW_YORK, "STOP")).status_code == 200
    page = await console.get(f"{INBOX}/{dana}")
    refused = await console.post(
        f"{INBOX}/{dana}/reply",
        data={"csrf_token": csrf(page.text), "channel": "sms", "body": "Are you sure?"},
    )
    assert refused.status_code == 422
    assert "Not sent. Blocked (opted_out)" in refused.text
    assert "Are you sure?" in refused.text  # the form keeps what was typed
    failed = (await ready.get("/v1/messages", params={"status": "FAILED"})).json()["data"]
    assert [row["blocked_reason"] for row in failed] == ["opted_out"]
    assert f'id="{failed[0]["id"]}" class="outbound failed"' in refused.text
    contact = (await ready.get(f"/v1/contacts/{dana}")).json()
    assert contact["ai_auto_response_paused_reason"] != "human_message"

    invalid = await console.post(
        f"{INBOX}/{dana}/reply",
        data={"csrf_token": csrf(page.text), "channel": "email", "subject": "", "body": "Hi"},
    )
    assert invalid.status_code == 400
    assert "subject: String should have at least 1 character" in invalid.text
    invalid = await console.post(
        f"{INBOX}/{dana}/reply",
        data={"csrf_token": csrf(page.text), "channel": "email", "subject": "S", "body": "Hi"},
    )
    assert invalid.status_code == 400
    assert "contact_id: the contact has no email address" in invalid.text


async def test_another_workspace_s_conversations_are_not_found(
    runtime, ready, other_tenant, client, console
):
    await add_sender(runtime, other_tenant, number="+14155550199")
    theirs = await person(other_tenant, LOS_ANGELES, "Theirs")
    await reply(client, LOS_ANGELES, "Hello other workspace", to="+14155550199")
    mine = await person(ready, NEW_YORK, "Mine")
    await reply(client, NEW_YORK, "Hello mine")
    page = await console.get(INBOX)
    assert [contact_id for contact_id, _ in listed(page.text)] == [mine]
    assert LOS_ANGELES not in page.text and "Hello other workspace" not in page.text
    token = csrf(page.text)
    assert (await console.get(f"{INBOX}/{theirs}")).status_code == 404
    for action in (f"{INBOX}/{theirs}/reply", f"{INBOX}/{theirs}/ai/resume"):
        response = await console.post(
            action, data={"csrf_token": token, "channel": "sms", "body": "Hi"}
        )
        assert response.status_code == 404, action
    listed_theirs = (await other_tenant.get("/v1/messages")).json()["data"]
    assert [row["direction"] for row in listed_theirs] == ["INBOUND"]


async def test_every_inbox_form_refuses_a_bad_token_and_a_foreign_origin(ready, client, console):
    dana = await person(ready, NEW_YORK, "Dana")
    await reply(client, NEW_YORK, "Hello")
    token = csrf((await console.get(f"{INBOX}/{dana}")).text)
    data = {"channel": "sms", "body": "Hi"}
    for action in (f"{INBOX}/{dana}/reply", f"{INBOX}/{dana}/ai/resume"):
        forged = await console.post(action, data={"csrf_token": "forged", **data})
        assert forged.status_code == 403, action
        foreign = await console.post(
            action, data={"csrf_token": token, **data}, headers={"Origin": FOREIGN}
        )
        assert foreign.status_code == 403, action
    messages = (await ready.get("/v1/messages", params={"direction": "OUTBOUND"})).json()
    assert messages["data"] == []


async def test_erasing_a_contact_removes_its_read_marks(runtime, ready, client, console):
    dana = await person(ready, NEW_YORK, "Dana")
    await reply(client, NEW_YORK, "Hello")
    assert (await console.get(f"{INBOX}/{dana}")).status_code == 200
    reads = ConversationRead.__table__
    query = select(reads.c.member_id).where(reads.c.contact_id == dana)
    async with runtime.db.transaction(write=False) as connection:
        assert len((await connection.execute(query)).all()) == 1
    assert (await ready.delete(f"/v1/contacts/{dana}")).status_code in (200, 204)
    async with runtime.db.transaction(write=False) as connection:
        assert (await connection.execute(query)).all() == []
    assert await inbox_of(console) == []
    page = await console.get(f"{INBOX}/{dana}")
    assert page.status_code == 200 and "Erased contact" in page.text
    assert NEW_YORK not in page.text and 'action="/console/inbox/' not in page.text
    async with runtime.db.transaction(write=False) as connection:
        assert (await connection.execute(query)).all() == []  # not read again


async def test_hostile_names_and_texts_are_escaped(ready, client, console):
    response = await ready.post(
        "/v1/contacts", json={"first_name": EVIL, "phone": NEW_YORK, "email": "e@example.com"}
    )
    dana = response.json()["id"]
    assert (await reply(client, NEW_YORK, EVIL)).status_code == 200
    sent = await ready.post(
        "/v1/messages",
        json={"channel": "email", "contact_id": dana, "subject": EVIL, "body": EVIL},
    )
    assert sent.status_code == 201, sent.text
    assert_escaped(await console.get(INBOX), times=2)  # the name and the latest text
    assert_escaped(await console.get(f"{INBOX}/{dana}"), times=4)


async def test_a_page_reads_the_messages_through_their_contact_index(runtime, ready):
    """The latest message of each conversation comes from an index-only walk of
    ix_messages_contact (workspace_id, contact_id, id), never the messages table itself
    (docs/console.md, "Decisions")."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, ready.id)
        for after in (None, (1, "msg_0")):
            statement = repository.conversations_statement(session, "usr_0", after=after, size=50)
            sql = str(
                statement.compile(
                    dialect=connection.dialect, compile_kwargs={"literal_binds": True}
                )
            )
            if runtime.db.is_sqlite:
                rows = await connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql)
                plan = [row[3] for row in rows]
                reads = [line for line in plan if " messages " in f"{line} "]
                assert reads == [
                    "SEARCH messages USING COVERING INDEX ix_messages_contact "
                    "(workspace_id=? AND contact_id>?)"
                ], plan
                continue
            # PostgreSQL reads so small a table whole: the plan asked is the one it takes
            # at size.
            for setting in ("enable_seqscan", "enable_bitmapscan"):
                await connection.exec_driver_sql(f"SET LOCAL {setting} = off")
            plan = [row[0] for row in await connection.exec_driver_sql("EXPLAIN " + sql)]
            reads = [line.strip() for line in plan if " on messages " in line]
            assert len(reads) == 1, plan
            assert reads[0].startswith("->  Index Only Scan using ix_messages_contact"), plan
