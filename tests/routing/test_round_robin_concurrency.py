"""Round-robin stays fair under concurrency: leads posted at the same moment through two
app instances (each with its own connection pool) on one database never share a turn
and never skip one. Runs on PostgreSQL (row lock on the cursor) and SQLite."""

import asyncio
from collections import Counter

import httpx
import pytest
from sqlalchemy import select

from homebase.db.engine import Database
from homebase.models import Lead
from homebase.ratelimit import MemoryLimiter
from homebase.root.app import create_app
from homebase.runtime import Runtime
from tests.leads_support import TEAM, load

LEADS = 40
AGENTS = ("maya", "luis", "priya", "jordan")


@pytest.fixture
def settings_overrides() -> dict:
    return {"rate_limit_api_key_per_min": 10_000}


@pytest.fixture
async def second_instance(runtime):
    """Another server on the same database: its own app, connection pool and limiter."""
    other = Runtime(
        settings=runtime.settings,
        db=Database(runtime.settings.database_url, pool_size=5),
        limiter=MemoryLimiter(),
    )
    transport = httpx.ASGITransport(app=create_app(other), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client
    await other.close()


async def stored_turns(runtime, lead_ids: list[str]) -> list[int]:
    leads = Lead.__table__
    async with runtime.db.transaction(write=False) as connection:
        return list(
            (
                await connection.execute(
                    select(leads.c.rotation_turn).where(leads.c.id.in_(lead_ids))
                )
            ).scalars()
        )


async def test_concurrent_leads_take_every_turn_exactly_once(runtime, tenant, second_instance):
    members = [*TEAM["members"], {"ref": "jordan", "email": "jordan@example.com", "name": "Jordan"}]
    created = await load(
        runtime,
        tenant.id,
        {
            **TEAM,
            "members": members,
            "routing_rules": [{"name": "rotate", "method": "round_robin", "agents": list(AGENTS)}],
        },
    )
    member_ids = dict(zip(AGENTS, created["members"], strict=True))
    clients = (tenant.client, second_instance)

    async def post(index: int) -> dict:
        response = await clients[index % 2].post(
            "/v1/leads",
            headers=tenant.headers,
            json={"phone": f"+1 415 555 {index:04d}", "source": "Zillow"},
        )
        assert response.status_code == 201, response.text
        return response.json()

    leads = await asyncio.gather(*(post(index) for index in range(LEADS)))
    assert {lead["routing_rule_id"] for lead in leads} == set(created["routing_rules"])
    per_agent = Counter(lead["assignee_id"] for lead in leads)
    assert per_agent == {member_ids[name]: LEADS // len(AGENTS) for name in AGENTS}
    turns = await stored_turns(runtime, [lead["id"] for lead in leads])
    assert sorted(turns) == list(range(LEADS))  # no turn shared, none skipped
    preview = (await tenant.post("/v1/leads/routing-preview", json={"source": "Zillow"})).json()
    assert preview["rotation_turn"] == LEADS


async def test_a_lead_whose_transaction_rolls_back_gives_its_turn_back(runtime, tenant):
    """The turn is part of the lead's transaction: when anything after it fails, the
    next lead gets the same turn, and the same agent."""
    from homebase.db.tenancy import TenantSession
    from homebase.leads.schemas import LeadCreate
    from homebase.leads.service import create_lead

    await load(
        runtime,
        tenant.id,
        {
            **TEAM,
            "routing_rules": [{"name": "rotate", "method": "round_robin", "agents": ["maya"]}],
        },
    )
    taken = []
    with pytest.raises(RuntimeError, match="after the turn"):
        async with runtime.db.transaction() as connection:
            session = TenantSession(connection, tenant.id, clock=runtime.clock)
            lead = await create_lead(session, LeadCreate(phone="+1 415 555 0100", source="Zillow"))
            taken.append(lead["rotation_turn"])
            raise RuntimeError("after the turn")
    assert taken == [0]
    response = await tenant.post("/v1/leads", json={"phone": "+1 415 555 0101", "source": "Zillow"})
    assert response.status_code == 201, response.text
    assert await stored_turns(runtime, [response.json()["id"]]) == [0]
