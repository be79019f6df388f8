"""Helpers for the campaign tests: a campaign from fixtures, contacts a campaign may
reach, a recording sender in place of the reach path (homebase/automations/reach.py), the
job."""

from typing import Any

from sqlalchemy import select

from homebase.ai import outreach
from homebase.automations import campaign_job, reach
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.messaging import repository as messaging_repository
from homebase.models import CampaignEnrolment, Message
from tests.automations_support import PERSONA, contact, load
from tests.messaging_support import add_consent

ENROLMENTS = CampaignEnrolment.__table__


def phone(index: int) -> str:
    return f"+1415555{index:04d}"


async def campaign(runtime, tenant, **values: Any) -> str:
    created = await load(
        runtime,
        tenant.id,
        {
            "personas": [PERSONA],
            "campaigns": [
                {
                    "name": "Spring open houses",
                    "persona": "ava",
                    "status": "active",
                    "goal": "Invite them to the open house at 12 Elm St.",
                    **values,
                }
            ],
        },
    )
    return created["campaigns"][0]


async def reachable(runtime, tenant, index: int, **values: Any) -> str:
    """A contact every rule lets a campaign reach: a number with consent."""
    number = phone(index)
    contact_id = await contact(tenant, phone=number, email=f"c{index}@example.com", **values)
    await add_consent(runtime, tenant, number)
    return contact_id


class Sender:
    """A plugged sender: answers `outcome` (Reached by default) and remembers each call."""

    def __init__(self, outcome=None):
        self.calls: list[tuple[str, str]] = []
        self.outcome = outcome

    async def __call__(self, session, enrolment, campaign):
        self.calls.append((enrolment["contact_id"], campaign["id"]))
        return self.outcome or reach.Reached(reference=f"ftj_{len(self.calls)}")


def plug(monkeypatch, outcome=None) -> Sender:
    """The reach path (ai/outreach.campaign_touch) replaced by a recording sender, for the
    job's own rules (pace, skips, crashes) without the AI's."""
    sender = Sender(outcome)
    monkeypatch.setattr(outreach, "campaign_touch", sender)
    return sender


async def run(runtime) -> int:
    return await campaign_job.run_due(runtime, 1000)


async def enrolments(runtime, campaign_id: str) -> list[dict[str, Any]]:
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(ENROLMENTS)
            .where(ENROLMENTS.c.campaign_id == campaign_id)
            .order_by(ENROLMENTS.c.id)
        )
        return [dict(row) for row in rows.mappings()]


async def inbound(runtime, tenant, contact_id: str, number: str, *, at=None) -> None:
    """A text from the contact, as the provider's webhook stores it."""
    now = at or runtime.clock()
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await session.insert(
            Message.__table__,
            {
                "id": new_id("msg"),
                "contact_id": contact_id,
                "channel": "SMS",
                "direction": "INBOUND",
                "status": "RECEIVED",
                "from_address": number,
                "to_address": "+14155550100",
                "counterpart": number,
                "body": "Yes, Saturday works",
                "ai_generated": False,
                "attempts": 0,
                "created_at": now,
                "updated_at": now,
                "received_at": now,
            },
        )


async def opt_out(runtime, tenant, number: str) -> None:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        await messaging_repository.suppress(
            session, kind="phone", address=number, reason="opt_out_reply", evidence={}
        )
