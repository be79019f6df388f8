"""`homebase admin set-password` and `remove-member` against the test's database (main(), in
this process; SQLite and PostgreSQL), their effects seen over HTTP: console sessions end,
the removed member's contacts and open tasks are unassigned (contact.updated each), routing
no longer picks them, and they cannot sign in."""

from tests.cli.test_cli import Cli, assert_failed, assert_ok
from tests.console_support import PASSWORD, browser, make_member, member_browser, sign_in
from tests.leads_support import load_team, outbox

NEW_PASSWORD = "a brand new passphrase"


def admin(tmp_path, database_url: str, *argv: str, **options) -> dict:
    cli = Cli(tmp_path)
    cli.url = database_url
    return assert_ok(cli.in_process("admin", *argv, **options))


async def test_set_password_ends_every_session_and_the_new_password_signs_in(
    app, runtime, tenant, tmp_path, database_url
):
    user_id = await make_member(runtime, tenant.id)
    async with (
        member_browser(app, runtime, user_id) as first,
        member_browser(app, runtime, user_id) as second,
    ):
        assert (await first.get("/console")).status_code == 200
        printed = admin(
            tmp_path,
            database_url,
            "set-password",
            "--workspace",
            tenant.id,
            "--email",
            "Agent@Example.com",
            stdin=NEW_PASSWORD + "\n",
        )
        assert printed == {"id": user_id, "password_changed": True, "sessions_ended": 2}
        for ended in (first, second):
            assert (await ended.get("/console")).status_code == 303
    async with browser(app) as fresh:
        refused = await sign_in(fresh, "agent@example.com", PASSWORD)
        assert "Incorrect email or password." in refused.text
        signed = await sign_in(fresh, "agent@example.com", NEW_PASSWORD)
        assert signed.status_code == 303 and (await fresh.get("/console")).status_code == 200


async def test_set_password_refuses_a_member_of_another_workspace(
    runtime, tenant, other_tenant, tmp_path, database_url
):
    await make_member(runtime, other_tenant.id, email="elsewhere@example.com")
    cli = Cli(tmp_path)
    cli.url = database_url
    done = cli.in_process(
        "admin",
        "set-password",
        "--workspace",
        tenant.id,
        "--email",
        "elsewhere@example.com",
        stdin=NEW_PASSWORD + "\n",
    )
    assert assert_failed(done) == (
        f"error: no member elsewhere@example.com in workspace {tenant.id}"
    )


RULES = [{"name": "rotate", "method": "round_robin", "agents": ["maya", "luis"]}]


async def test_remove_member_unassigns_their_work_and_takes_them_out_of_routing(
    app, runtime, tenant, tmp_path, database_url
):
    team = await load_team(runtime, tenant.id, RULES)
    maya, luis = team["maya"], team["luis"]
    await make_member(runtime, tenant.id, email="kept@example.com")  # another member
    owned = await tenant.post("/v1/contacts", json={"first_name": "Ana", "owner_id": maya})
    other = await tenant.post("/v1/contacts", json={"first_name": "Bo", "owner_id": luis})
    contact_id = owned.json()["id"]
    tasks = {}
    for status in ("open", "done"):
        created = await tenant.post(
            "/v1/tasks", json={"title": f"Call ({status})", "assignee_id": maya, "status": status}
        )
        assert created.status_code == 201, created.text
        tasks[status] = created.json()["id"]
    maya_in = ("--workspace", tenant.id, "--email", "maya@example.com")
    admin(tmp_path, database_url, "set-password", *maya_in, stdin=NEW_PASSWORD + "\n")
    async with browser(app) as session_of_maya:
        assert (await sign_in(session_of_maya, "maya@example.com", NEW_PASSWORD)).status_code == 303
        assert (await session_of_maya.get("/console")).status_code == 200
        before = {event["id"] for event in await outbox(runtime, tenant.id)}

        printed = admin(tmp_path, database_url, "remove-member", *maya_in)
        assert printed == {
            "id": maya,
            "email": "maya@example.com",
            "removed": True,
            "sessions_ended": 1,
            "contacts_unassigned": 1,
            "tasks_unassigned": 1,
            "routing_rules_changed": 1,
            "invitations_withdrawn": 0,
        }
        assert (await session_of_maya.get("/console")).status_code == 303  # cookie refused

    assert (await tenant.get(f"/v1/contacts/{contact_id}")).json()["owner_id"] is None
    assert (await tenant.get(f"/v1/contacts/{other.json()['id']}")).json()["owner_id"] == luis
    events = [e for e in await outbox(runtime, tenant.id) if e["id"] not in before]
    assert [(e["type"], e["data"]["id"], e["data"]["changed"]) for e in events] == [
        ("contact.updated", contact_id, ["owner_id"])
    ]
    assert events[0]["data"]["owner_id"] is None
    open_task = (await tenant.get(f"/v1/tasks/{tasks['open']}")).json()
    done_task = (await tenant.get(f"/v1/tasks/{tasks['done']}")).json()
    assert (open_task["assignee_id"], done_task["assignee_id"]) == (None, maya)

    # Routing: every lead goes to Luis now, and Maya cannot be given new work.
    for index in range(3):
        lead = await tenant.post(
            "/v1/leads", json={"source": "Website", "phone": f"+1 415 555 010{index}"}
        )
        assert lead.status_code == 201, lead.text
        assert lead.json()["assignee_id"] == luis
    preview = await tenant.post("/v1/leads/routing-preview", json={"source": "Website"})
    assert preview.json()["considered"][0]["eligible_agent_ids"] == [luis]
    refused = await tenant.patch(f"/v1/contacts/{contact_id}", json={"owner_id": maya})
    assert refused.status_code == 400
    assert refused.json()["error"]["details"]["errors"][0]["field"] == "owner_id"
    refused = await tenant.post("/v1/tasks", json={"title": "More", "assignee_id": maya})
    assert refused.status_code == 400

    # Sign-in is refused (as any wrong password), and removing again names no member.
    async with browser(app) as fresh:
        refused = await sign_in(fresh, "maya@example.com", NEW_PASSWORD)
        assert "Incorrect email or password." in refused.text
    cli = Cli(tmp_path)
    cli.url = database_url
    again = cli.in_process("admin", "remove-member", *maya_in)
    assert "no member maya@example.com" in assert_failed(again)


async def test_create_user_brings_a_removed_member_back_under_the_same_id(
    app, runtime, tenant, tmp_path, database_url
):
    user_id = await make_member(runtime, tenant.id)
    admin(
        tmp_path,
        database_url,
        "remove-member",
        "--workspace",
        tenant.id,
        "--email",
        "agent@example.com",
    )
    back = admin(
        tmp_path,
        database_url,
        "create-user",
        "--workspace",
        tenant.id,
        "--email",
        "agent@example.com",
        "--name",
        "Agent Back",
        "--password-stdin",
        stdin=NEW_PASSWORD + "\n",
    )
    assert back == {"id": user_id, "email": "agent@example.com", "name": "Agent Back"}
    owned = await tenant.post("/v1/contacts", json={"first_name": "Cy", "owner_id": user_id})
    assert owned.status_code == 201, owned.text
    async with browser(app) as fresh:
        assert (await sign_in(fresh, "agent@example.com", NEW_PASSWORD)).status_code == 303
