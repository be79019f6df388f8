"""When a proactive text may go out to a number, from now: the workspace's window within
the number's state's rule, and the state's attempt limit (compliance/lawful_hours.py,
the gates' own table). Read by what waits for a lawful minute instead of failing: the
AI's unasked texts (ai/outreach_jobs.py) and automations' text steps
(automations/actions.py)."""

from datetime import datetime

from homebase.compliance import lawful_hours
from homebase.compliance.gates import Blocked
from homebase.db.tenancy import TenantSession
from homebase.messaging import repository, service
from homebase.messaging.send_policy import send_policy, workspace_row

WAITS = ("quiet_hours", "attempt_limit")  # the refusals a proactive text may wait out


async def lawful_at(session: TenantSession, address: str, *, latest: datetime) -> datetime | None:
    """The first moment from now, no later than `latest`, a proactive text may reach
    `address`: the workspace's window within the number's state's rule, and the state's
    attempt limit (compliance/lawful_hours.py, the gate's own table); None when none."""
    now = session.now()
    window = send_policy((await workspace_row(session))["settings"]).window
    zones, rule = lawful_hours.lawful(address)
    attempts: tuple[datetime, ...] = ()
    if rule is not None and rule.attempts is not None:
        since = now - lawful_hours.ATTEMPT_WINDOW
        attempts = tuple(await repository.proactive_since(session, address, since))
    moment: datetime | None = now
    while moment is not None and moment <= latest:
        moment = lawful_hours.next_allowed(moment, zones, rule, window, horizon=latest - moment)
        if moment is None:
            return None
        recent = tuple(at for at in attempts if at > moment - lawful_hours.ATTEMPT_WINDOW)
        free = lawful_hours.attempts_free_at(rule, recent)
        if free is None or free <= moment:
            return moment
        moment = free
    return None


async def waits(
    session: TenantSession, channel: str, address: str, *, ai: bool = False
) -> str | None:
    """The gate's reason when only the lawful hours refuse a text to `address` now
    (WAITS), else None: the look before a text that may wait for its minute. It records
    nothing and sends nothing; the send that follows passes the gate itself. `ai`: an AI
    text (a reply only within the AI's reply window, messaging/service.decide)."""
    sender = await service.resolve_sender(session, channel, requested=None)
    decision, _ = await service.decide(
        session, channel, address=address, sender=sender, ai_reply=ai
    )
    if isinstance(decision, Blocked) and decision.reason in WAITS:
        return decision.reason
    return None
