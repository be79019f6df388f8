"""The console's Tasks page: the open tasks, the AI's handoffs first, then by due time
(none last), 50 a page; Complete and Reassign through tasks/service.py; never another
workspace's task or member."""

import re
from datetime import timedelta
from html import unescape

import pytest

from homebase.db.tenancy import TenantSession
from homebase.kit.clock import isoformat
from homebase.tasks import service as tasks
from homebase.tasks.schemas import TaskCreate, TaskPriority
from tests.console_support import csrf, make_member, member_browser, post_form
from tests.members.test_members import remove

TASKS = "/console/tasks"


@pytest.fixture
async def member(runtime, tenant):
    return await make_member(runtime, tenant.id)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


def listed(html: str) -> list[str]:
    return re.findall(r'<tr id="(tsk_[^"]+)">', html)


async def task(tenant, title: str, **body) -> str:
    response = await tenant.post("/v1/tasks", json={"title": title, **body})
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def handoff(runtime, workspace_id: str, title: str, contact_id: str, due) -> str:
    """A task as the AI's handoff makes it (ai/service.py: source ai)."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        row, _ = await tasks.create_task(
            session,
            TaskCreate(title=title, contact_id=contact_id, due_at=due, priority=TaskPriority.high),
            source="ai",
        )
    return row["id"]


async def test_open_tasks_handoffs_first_then_by_due(console, runtime, tenant, other_tenant):
    now = runtime.clock()
    contact = (await tenant.post("/v1/contacts", json={"first_name": "Bella"})).json()["id"]
    later = await task(tenant, "Send comps", due_at=isoformat(now + timedelta(hours=5)))
    undated = await task(tenant, "Someday: ask for a review")
    soon = await task(tenant, "Call back", due_at=isoformat(now + timedelta(hours=1)))
    late_handoff = await handoff(
        runtime, tenant.id, "Call Bella: asked for a person", contact, now + timedelta(hours=9)
    )
    overdue = await task(tenant, "Overdue", due_at=isoformat(now - timedelta(hours=2)))
    early_handoff = await handoff(
        runtime, tenant.id, "Call Bella: asked about lending", contact, now + timedelta(hours=3)
    )
    done = await task(tenant, "Already done", status="done")
    theirs = await task(other_tenant, "Their task")
    page = await console.get(TASKS)
    assert page.status_code == 200
    assert 'href="/console/tasks" aria-current="page"' in page.text
    assert listed(page.text) == [early_handoff, late_handoff, overdue, soon, later, undated]
    assert done not in page.text and theirs not in page.text and "Their task" not in page.text
    assert f'<a href="/console/people/{contact}">Bella</a>' in page.text


async def test_paging_keeps_the_order(console, runtime, tenant):
    now = runtime.clock()
    made = [
        await task(tenant, f"Task {index:02d}", due_at=isoformat(now + timedelta(minutes=index)))
        for index in range(53)
    ]
    contact = (await tenant.post("/v1/contacts", json={"first_name": "Bella"})).json()["id"]
    first_handoff = await handoff(runtime, tenant.id, "Handoff", contact, now + timedelta(days=2))
    first = await console.get(TASKS)
    assert listed(first.text) == [first_handoff, *made[:49]]
    link = re.search(r'<a href="([^"]+)">Older</a>', first.text)
    assert link
    second = await console.get(unescape(link.group(1)))
    assert listed(second.text) == made[49:]
    assert "Older" not in second.text


async def test_complete_a_task(console, tenant, other_tenant):
    mine = await task(tenant, "Call back")
    theirs = await task(other_tenant, "Their task")
    completed = await post_form(console, TASKS, f"{TASKS}/{mine}/complete", {})
    assert completed.status_code == 303
    assert completed.headers["location"] == f"{TASKS}?done=completed"
    assert (await tenant.get(f"/v1/tasks/{mine}")).json()["status"] == "done"
    shown = await console.get(completed.headers["location"])
    assert "The task is done." in shown.text and mine not in listed(shown.text)
    again = await post_form(console, TASKS, f"{TASKS}/{mine}/complete", {})
    assert again.status_code == 409 and "no longer open" in again.text
    refused = await post_form(console, TASKS, f"{TASKS}/{theirs}/complete", {})
    assert refused.status_code == 404
    assert (await other_tenant.get(f"/v1/tasks/{theirs}")).json()["status"] == "open"


async def test_reassign_to_another_current_member(console, runtime, tenant, other_tenant, member):
    luis = await make_member(runtime, tenant.id, email="luis@example.com", name="Luis Ortega")
    gone = await make_member(runtime, tenant.id, email="gone@example.com", name="Gone Member")
    await remove(runtime, tenant.id, "gone@example.com")
    stranger = await make_member(runtime, other_tenant.id, email="x@example.com", name="Stranger")
    mine = await task(tenant, "Call back", assignee_id=member)
    page = (await console.get(TASKS)).text
    assert f'<option value="{luis}">Luis Ortega</option>' in page
    assert gone not in page and stranger not in page  # only current members are offered
    moved = await post_form(console, TASKS, f"{TASKS}/{mine}/reassign", {"assignee_id": luis})
    assert moved.status_code == 303 and moved.headers["location"] == f"{TASKS}?done=reassigned"
    after = (await tenant.get(f"/v1/tasks/{mine}")).json()
    assert after["assignee_id"] == luis and after["status"] == "open"
    for refused_id in (gone, stranger, ""):
        refused = await post_form(
            console, TASKS, f"{TASKS}/{mine}/reassign", {"assignee_id": refused_id}
        )
        assert refused.status_code == 400, refused_id
        assert "assignee_id: is not a member of this workspace" in refused.text
    assert (await tenant.get(f"/v1/tasks/{mine}")).json()["assignee_id"] == luis
    theirs = await task(other_tenant, "Their task")
    token = csrf(page)
    response = await console.post(
        f"{TASKS}/{theirs}/reassign", data={"csrf_token": token, "assignee_id": luis}
    )
    assert response.status_code == 404
    assert (await other_tenant.get(f"/v1/tasks/{theirs}")).json()["assignee_id"] is None
    await post_form(console, TASKS, f"{TASKS}/{mine}/complete", {})
    closed = await post_form(console, TASKS, f"{TASKS}/{mine}/reassign", {"assignee_id": member})
    assert closed.status_code == 409
    assert (await tenant.get(f"/v1/tasks/{mine}")).json()["assignee_id"] == luis
