"""The console's People list and a person's page: the workspace's contacts as GET
/v1/contacts lists them (search, stage, owner and tag, paged), in full (a member's pages
are unmasked, as a member's export), never another workspace's; a person's fields, custom
fields, AI state with Pause and Resume, timeline (a call's recording link) and note box,
through the API's own service functions."""

import re
from datetime import UTC, datetime
from html import unescape

import pytest

from homebase.calls import service as calls
from homebase.calls.schemas import CallDetails
from homebase.db.tenancy import TenantSession
from tests.console_support import csrf, make_member, member_browser, post_form

PEOPLE = "/console/people"


@pytest.fixture
async def member(runtime, tenant):
    return await make_member(runtime, tenant.id)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


def rows(html: str) -> dict[str, str]:
    return dict(re.findall(r'<tr id="(con_[^"]+)">(.*?)</tr>', html, re.DOTALL))


def older(html: str) -> str | None:
    found = re.search(r'<a href="([^"]+)">Older</a>', html)
    return unescape(found.group(1)) if found else None


async def create(tenant, **body) -> str:
    response = await tenant.post("/v1/contacts", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def test_people_lists_this_workspace_only_in_full(console, tenant, other_tenant):
    mine = await create(
        tenant, first_name="Dana", last_name="Reyes", email="dana@example.com", phone="+14155550142"
    )
    theirs = await create(other_tenant, first_name="Quentin", email="quentin@example.com")
    page = await console.get(PEOPLE)
    assert page.status_code == 200
    assert 'href="/console/people" aria-current="page"' in page.text
    shown = rows(page.text)
    assert set(shown) == {mine}
    assert "dana@example.com" in shown[mine] and "+14155550142" in shown[mine]
    assert "Quentin" not in page.text and "quentin@example.com" not in page.text
    # Another workspace's person is the 404 page, as an unknown id.
    for missing in (theirs, "con_unknown"):
        response = await console.get(f"{PEOPLE}/{missing}")
        assert response.status_code == 404 and "Quentin" not in response.text
    # A search for another workspace's contact by name or email finds nothing.
    for q in ("Quentin", "quentin@example.com"):
        assert rows((await console.get(PEOPLE, params={"q": q})).text) == {}


async def test_filters_search_and_paging(console, runtime, tenant, member):
    other = await make_member(runtime, tenant.id, email="luis@example.com", name="Luis Ortega")
    made = []
    for index in range(55):
        made.append(
            await create(
                tenant,
                first_name=f"Person{index:02d}",
                email=f"p{index}@example.com",
                stage="HOT_LEAD" if index % 5 == 0 else "LEAD",
                tags=["buyer"] if index % 2 == 0 else ["seller"],
                owner_id=other if index % 25 == 0 else member,
            )
        )
    first = await console.get(PEOPLE)
    page_one = list(rows(first.text))
    assert page_one == made[::-1][:50]
    following = older(first.text)
    assert following and following.startswith(PEOPLE + "?cursor=")
    second = await console.get(following)
    assert list(rows(second.text)) == made[::-1][50:] and older(second.text) is None

    async def shown(**params) -> set[str]:
        response = await console.get(PEOPLE, params=params)
        assert response.status_code == 200, response.text
        return set(rows(response.text))

    assert await shown(stage="HOT_LEAD") == {made[i] for i in range(55) if i % 5 == 0}
    assert await shown(tag="buyer", stage="HOT_LEAD") == {made[i] for i in range(0, 55, 10)}
    assert await shown(owner=other) == {made[0], made[25], made[50]}
    assert await shown(q="person07") == {made[7]}
    assert await shown(q="p33@example.com") == {made[33]}
    assert await shown(q="nobody-at-all-zq") == set()
    # the form keeps the filters, and the owner choice lists the members by name
    page = (await console.get(PEOPLE, params={"stage": "HOT_LEAD", "q": "Person"})).text
    assert '<option value="HOT_LEAD" selected>' in page and 'value="Person"' in page
    assert f'<option value="{other}">Luis Ortega</option>' in page
    # a filtered list's next page carries its filters, and its cursor belongs to them
    buyers = await console.get(PEOPLE, params={"tag": "buyer"})
    assert older(buyers.text) is None  # 28 buyers: one page
    many = await console.get(PEOPLE, params={"owner": member})
    link = older(many.text)
    assert link and "owner=" + member in link
    rest = await console.get(link)
    assert len(rows(many.text)) == 50 and older(rest.text) is None
    assert set(rows(many.text)) | set(rows(rest.text)) == {made[i] for i in range(55) if i % 25}
    # an invalid filter is a 400 page naming it
    refused = await console.get(PEOPLE, params={"stage": "NOT_A_STAGE"})
    assert refused.status_code == 400 and "stage:" in refused.text


async def _call(runtime, workspace_id: str, contact_id: str) -> str:
    details = CallDetails.model_validate(
        {
            "direction": "inbound",
            "from": "+14155550142",
            "to": "+14155550100",
            "started_at": datetime(2026, 11, 20, 17, tzinfo=UTC),
            "duration_seconds": 252,
            "handled_by": "ai",
            "disposition": "appointment_set",
            "summary": "Wants a Saturday showing of 12 Elm St; QUINCE-PEOPLE-SUMMARY",
            "recording_key": "provider/CA-people.wav",
            "contact_id": contact_id,
        }
    )
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        row = await calls.record_call(session, details, provider_call_id="CA-people")
    return row["id"]


async def test_a_persons_page(console, runtime, tenant, member):
    field = await tenant.post(
        "/v1/custom-fields",
        json={"object": "contacts", "key": "budget", "label": "Budget ceiling", "type": "number"},
    )
    assert field.status_code == 201, field.text
    contact = await create(
        tenant,
        first_name="Dana",
        last_name="Reyes",
        email="dana@example.com",
        phone="+14155550142",
        stage="HOT_LEAD",
        tags=["buyer", "pre-approved"],
        owner_id=member,
        custom_fields={"budget": 850000},
    )
    note = await tenant.post(f"/v1/contacts/{contact}/notes", json={"body": "Called <b>back</b>"})
    assert note.status_code == 201
    call_id = await _call(runtime, tenant.id, contact)
    page = await console.get(f"{PEOPLE}/{contact}")
    assert page.status_code == 200
    html = page.text
    assert "<h1>Dana Reyes</h1>" in html
    assert 'href="/console/people" aria-current="true"' in html
    for shown in ("dana@example.com", "+14155550142", "HOT_LEAD", "buyer, pre-approved"):
        assert shown in html
    assert "Agent Smith" in html  # the owner, by name
    assert "<dt>Budget ceiling</dt><dd>850000</dd>" in html
    assert "Called &lt;b&gt;back&lt;/b&gt;" in html  # the note, escaped
    assert "QUINCE-PEOPLE-SUMMARY" in html and "AI call (inbound, 4m 12s)" in html
    link = re.search(r'<a href="([^"]+)">Recording</a>', html)
    assert link and "/recordings/" in link.group(1)
    assert "Paused" in html and "a note was added" in html  # the note paused the AI
    # the API's timeline holds the same entries
    events = (await tenant.get(f"/v1/contacts/{contact}/events")).json()["data"]
    assert all(f'id="{event["id"]}"' in html for event in events)
    assert any(event["data"].get("call_id") == call_id for event in events)


async def test_pause_resume_and_note_go_through_the_api_rules(console, tenant):
    contact = await create(tenant, first_name="Sam")
    page = f"{PEOPLE}/{contact}"
    paused = await post_form(console, page, f"{page}/ai/pause", {})
    assert paused.status_code == 303 and paused.headers["location"] == f"{page}?done=paused"
    state = (await tenant.get(f"/v1/contacts/{contact}")).json()
    assert state["ai_auto_response_paused"] and state["ai_auto_response_paused_reason"] == "manual"
    assert "a member paused it" in (await console.get(paused.headers["location"])).text
    resumed = await post_form(console, page, f"{page}/ai/resume", {})
    assert resumed.status_code == 303
    assert not (await tenant.get(f"/v1/contacts/{contact}")).json()["ai_auto_response_paused"]
    assert "Pause the AI" in (await console.get(page)).text
    noted = await post_form(console, page, f"{page}/notes", {"body": "Prefers texts after 6"})
    assert noted.status_code == 303 and noted.headers["location"] == f"{page}?done=noted"
    notes = (await tenant.get(f"/v1/contacts/{contact}/notes")).json()["data"]
    assert [note["body"] for note in notes] == ["Prefers texts after 6"]
    state = (await tenant.get(f"/v1/contacts/{contact}")).json()
    assert state["ai_auto_response_paused_reason"] == "note"
    empty = await post_form(console, page, f"{page}/notes", {"body": "   "})
    assert empty.status_code == 400 and "body:" in empty.text
    # an erased contact takes no note: the API's 409
    assert (await tenant.delete(f"/v1/contacts/{contact}")).status_code == 200
    refused = await post_form(console, page, f"{page}/notes", {"body": "after erasure"})
    assert refused.status_code == 409 and "erased" in refused.text
    assert len((await tenant.get(f"/v1/contacts/{contact}/notes")).json()["data"]) == 1


async def test_another_workspaces_person_is_404_on_every_form(console, other_tenant):
    theirs = await create(other_tenant, first_name="Quentin")
    token = csrf((await console.get(PEOPLE)).text)
    for action in ("ai/pause", "ai/resume", "notes"):
        response = await console.post(
            f"{PEOPLE}/{theirs}/{action}", data={"csrf_token": token, "body": "x"}
        )
        assert response.status_code == 404, action
    state = (await other_tenant.get(f"/v1/contacts/{theirs}")).json()
    assert not state["ai_auto_response_paused"]
    assert (await other_tenant.get(f"/v1/contacts/{theirs}/notes")).json()["data"] == []


async def test_every_new_form_refuses_a_bad_token_and_a_foreign_origin(console, tenant):
    contact = await create(tenant, first_name="Sam")
    task = await tenant.post("/v1/tasks", json={"title": "Call Sam", "contact_id": contact})
    task_id = task.json()["id"]
    token = csrf((await console.get(PEOPLE)).text)
    forms = [
        (f"{PEOPLE}/{contact}/ai/pause", {}),
        (f"{PEOPLE}/{contact}/ai/resume", {}),
        (f"{PEOPLE}/{contact}/notes", {"body": "QUINCE-FORGED-NOTE"}),
        (f"/console/tasks/{task_id}/complete", {}),
        (f"/console/tasks/{task_id}/reassign", {"assignee_id": "usr_x"}),
    ]
    for action, data in forms:
        for forged in ({}, {"csrf_token": "forged"}):
            response = await console.post(action, data={**data, **forged})
            assert response.status_code == 403, (action, forged)
        foreign = await console.post(
            action,
            data={**data, "csrf_token": token},
            headers={"Origin": "https://evil.example"},
        )
        assert foreign.status_code == 403, action
    state = (await tenant.get(f"/v1/contacts/{contact}")).json()
    assert not state["ai_auto_response_paused"]
    assert (await tenant.get(f"/v1/contacts/{contact}/notes")).json()["data"] == []
    after = (await tenant.get(f"/v1/tasks/{task_id}")).json()
    assert after["status"] == "open" and after["assignee_id"] is None
