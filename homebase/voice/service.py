"""When the AI may call, and what it says first (docs/voice.md).

`place_ai_call(session, contact, persona=..., reason=...)` is the one way a call is
asked for (the seam the AI's first touch and follow-ups plug into): it checks the gates
and records the call, `queued` for the worker (voice/jobs.py), or `refused` with the gate
that refused it. The worker checks them again just before it dials.

The gates, in order (the first refusal wins, its code kept as the call's `error`):

1. voice_off          the persona does not place calls (`voice` false)
2. no_number          the contact is erased or has no valid number
3. ai_paused          the contact's AI is paused (a handoff, a person took over)
4. account_suspended  the compliance gates' own account gate (compliance/gates.py)
5. opted_out          the number is on the suppression list: a number that opted out
                      of texts is not called either (the gates' suppression gate)
6. calls_revoked      the number asked not to be called (calls/revocations.py)
7. no_voice_number    the workspace has no sender number with the voice capability
8. calling_hours      outside the lawful hours of a proactive contact in any zone of the
                      number (compliance/lawful_hours.py: the texts' table, the state's
                      rule within 08:00-20:00)
9. attempt_limit      the number's state allows no more proactive texts and calls in 24
                      hours (texts and placed calls count alike)
10. voice_consent_missing  no unexpired, unrevoked consent artifact with ai_voice true
"""

from dataclasses import dataclass
from datetime import datetime

from homebase.automations import persona_texts
from homebase.automations.records import PersonaRecord
from homebase.calls import revocations
from homebase.compliance import gates, lawful_hours
from homebase.config import Settings
from homebase.consent.service import has_voice_consent
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.messaging import repository as messaging_repository
from homebase.voice import repository
from homebase.voice.records import VoiceCallRecord

RELAY_PATH = "/providers/voice/relay"
ACTION_PATH = "/providers/voice/action"
STATUS_PATH = "/providers/voice/status"
AMD_PATH = "/providers/voice/machine"
RECORDING_PATH = "/providers/voice/recording"
INBOUND_PATH = "/providers/voice/inbound"


@dataclass
class Draining:
    """Set by voice/endpoints.drain (serve's SIGTERM): no new call starts in this process."""

    on: bool = False


DRAINING = Draining()


@dataclass(frozen=True)
class Refusal:
    reason: str
    text: str


def _outside_hours(number: str, now: datetime) -> Refusal | None:
    """The lawful hours of a proactive contact (compliance/lawful_hours.py, the table the
    texts' gate reads): the proactive window within the number's state's rule."""
    zones, rule = lawful_hours.lawful(number)
    why = lawful_hours.refusal(now, zones, rule, lawful_hours.SendingWindow())
    return Refusal("calling_hours", why) if why is not None else None


def next_lawful_minute(number: str, now: datetime) -> datetime | None:
    """The next minute the number may be called (the lawful hours of `_outside_hours`),
    within the table's horizon; None when there is none."""
    zones, rule = lawful_hours.lawful(number)
    return lawful_hours.next_allowed(now, zones, rule, lawful_hours.SendingWindow())


async def _over_attempt_limit(session: TenantSession, number: str, now: datetime) -> Refusal | None:
    """The state's attempt limit: proactive texts and calls made to the number in the
    last 24 hours count alike (messaging/repository.proactive_since)."""
    _, rule = lawful_hours.lawful(number)
    if rule is None or rule.attempts is None:
        return None
    since = now - lawful_hours.ATTEMPT_WINDOW
    made = tuple(await messaging_repository.proactive_since(session, number, since))
    why = lawful_hours.attempt_refusal(rule, made)
    return Refusal("attempt_limit", why) if why is not None else None


async def refusal(
    session: TenantSession,
    contact: ContactRecord | None,
    *,
    persona: PersonaRecord | None,
    now: datetime,
) -> Refusal | None:
    """The first gate that refuses an AI call to `contact` as `persona` (the module)."""
    if persona is None or not persona["voice"]:
        return Refusal("voice_off", "The persona does not place calls.")
    number = contact["phone_e164"] if contact is not None else None
    if contact is None or contact["anonymized_at"] is not None or not number:
        return Refusal("no_number", "The contact is erased or has no valid phone number.")
    if contact["ai_paused_at"] is not None:
        return Refusal("ai_paused", "The contact's AI is paused.")
    workspace = await session.workspace()
    suppressed = await messaging_repository.active_suppression(session, number)
    decision = gates.evaluate(
        gates.WorkspaceState(str(workspace["status"]) if workspace else "suspended"),
        gates.RecipientState(
            address=number, suppression=suppressed["reason"] if suppressed else None
        ),
        "VOICE",
        now,
    )
    if isinstance(decision, gates.Blocked):
        return Refusal(decision.reason, decision.text)
    if await revocations.revoked(session, number) is not None:
        return Refusal("calls_revoked", "The number asked not to be called.")
    if await repository.voice_number(session) is None:
        return Refusal("no_voice_number", "The workspace has no number with the voice capability.")
    outside = _outside_hours(number, now) or await _over_attempt_limit(session, number, now)
    if outside is not None:
        return outside
    if not await has_voice_consent(session, number, now=now):
        return Refusal(
            "voice_consent_missing",
            "No unexpired consent artifact with ai_voice true exists for the number.",
        )
    return None


async def place_ai_call(
    session: TenantSession,
    contact: ContactRecord,
    *,
    persona: PersonaRecord,
    reason: str,
) -> VoiceCallRecord:
    """Asks for an AI call to `contact` as `persona` (`reason`: first_touch, follow_up,
    ...): the call `queued` for the worker, or `refused` with the gate's code in `error`.
    Both are recorded, in the caller's transaction: a queued call is never lost."""
    refused = await refusal(session, contact, persona=persona, now=session.now())
    return await record_ai_call(session, contact, persona=persona, reason=reason, refused=refused)


async def record_ai_call(
    session: TenantSession,
    contact: ContactRecord,
    *,
    persona: PersonaRecord,
    reason: str,
    refused: Refusal | None,
) -> VoiceCallRecord:
    """place_ai_call's record, for a caller that has just run `refusal` itself (to wait
    out the calling hours before anything is recorded): `queued`, or `refused` by it."""
    now = session.now()
    row = new_call(
        session,
        contact_id=contact["id"],
        persona_id=persona["id"],
        direction="outbound",
        reason=reason[:60],
        from_number=await repository.voice_number(session),
        to_number=contact["phone_e164"],
        status="refused" if refused else "queued",
        next_attempt_at=None if refused else now,
        error=f"{refused.reason}: {refused.text}"[:500] if refused else None,
    )
    await repository.insert(session, row)
    if not refused:
        session.mark_work()
    return row


def refusal_code(call: VoiceCallRecord) -> str | None:
    """The code of the gate that refused `call` (its `error` starts with it), or None."""
    if call["status"] != "refused":
        return None
    return (call["error"] or "refused").split(":", 1)[0]


def new_call(
    session: TenantSession,
    *,
    contact_id: str | None,
    persona_id: str,
    direction: str,
    reason: str,
    from_number: str | None,
    to_number: str | None,
    status: str,
    provider_call_sid: str | None = None,
    next_attempt_at: datetime | None = None,
    answered_by: str | None = None,
    error: str | None = None,
) -> VoiceCallRecord:
    """A voice_calls row as a call starts (placed by the service, or answered): nothing
    said, nothing recorded, no lease yet."""
    now = session.now()
    return {
        "id": new_id("vcl"),
        "contact_id": contact_id,
        "persona_id": persona_id,
        "ai_job_id": None,
        "direction": direction,
        "reason": reason,
        "from_number": from_number,
        "to_number": to_number,
        "status": status,
        "provider_call_sid": provider_call_sid,
        "attempts": 0,
        "next_attempt_at": next_attempt_at,
        "lease_token": None,
        "lease_expires_at": None,
        "answered_by": answered_by,
        "transcript": [],
        "handoff": None,
        "disposition": None,
        "summary": None,
        "error": error,
        "call_id": None,
        "end_status": None,
        "duration_seconds": None,
        "recording_sid": None,
        "erased_at": None,
        "started_at": None,
        "ended_at": None,
        "created_at": now,
        "updated_at": now,
    }


async def greeting(
    session: TenantSession,
    contact: ContactRecord | None,
    *,
    persona: PersonaRecord,
    callback_number: str | None,
    inbound: bool = False,
) -> str:
    """The first words of every AI call, spoken before anything else and not
    interruptible: an automated assistant, for which agent of which business, that the
    call is recorded, how to stop calls and the number to call back (47 CFR 64.1200(b))."""
    signer = await _signer(session, contact, persona)
    agent, business = signer["agent_name"], signer["workspace_name"]
    opening = (
        f"Thanks for calling {business}. You are speaking with an automated assistant for {agent}."
        if inbound
        else f"Hi, this is an automated assistant calling for {agent} of {business}."
    )
    back = f" You can reach us at {_spoken(callback_number)}." if callback_number else ""
    return (
        f"{opening} This call is recorded. To stop these calls, say stop calling at any time.{back}"
    )


def voicemail_text(greeting_text: str, persona: PersonaRecord) -> str:
    """A voicemail is an artificial-voice message too: the greeting's disclosure, identity
    and callback number first, then the persona's short text."""
    own = (persona["voicemail_text"] or "").strip() or "Please call us back when you can."
    return f"{greeting_text} {own}"


async def _signer(
    session: TenantSession, contact: ContactRecord | None, persona: PersonaRecord
) -> persona_texts.Signer:
    if contact is not None:
        return await persona_texts.signer(session, contact, persona)
    workspace = await session.workspace()
    name = str(workspace["name"]) if workspace is not None else ""
    return {
        "agent_first_name": name,
        "agent_name": name,
        "persona_name": persona["name"],
        "workspace_name": name,
    }


def _spoken(number: str) -> str:
    """A number as text-to-speech reads it well: digit groups."""
    digits = number.lstrip("+")
    if number.startswith("+1") and len(digits) == 11:
        return f"{digits[1:4]} {digits[4:7]} {digits[7:]}"
    return " ".join(digits)


def public_url(settings: Settings, path: str, *, call_id: str) -> str:
    return f"{settings.public_url.rstrip('/')}{path}?call={call_id}"


def relay_url(settings: Settings, call_id: str) -> str:
    """The relay's address as the provider is given it: HOMEBASE_PUBLIC_URL's, as a
    WebSocket (https -> wss, http -> ws)."""
    base = settings.public_url.rstrip("/")
    scheme, _, rest = base.partition("://")
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}{RELAY_PATH}?call={call_id}"


async def call_contact(
    session: TenantSession, contact_id: str, *, persona_id: str | None, reason: str
) -> VoiceCallRecord:
    """`homebase admin place-ai-call`: place_ai_call for a contact of the workspace as
    `persona_id`, else the workspace's voice persona (its responder first)."""
    from homebase.ai import repository as ai_repository
    from homebase.contacts import repository as contacts_repository
    from homebase.kit.errors import AdminError
    from homebase.models import Persona

    contact = await contacts_repository.get(session, contact_id)
    if contact is None:
        raise AdminError(f"no contact {contact_id} in this workspace")
    table = Persona.__table__
    if persona_id is None:
        found = await session.fetch_one(
            session.select(table, table.c.id)
            .where(table.c.voice.is_(True))
            .order_by(table.c.responder.desc(), table.c.id)
            .limit(1)
        )
        if found is None:
            raise AdminError("the workspace has no persona with voice on")
        persona_id = str(found["id"])
    persona = await ai_repository.persona(session, persona_id)
    if persona is None:
        raise AdminError(f"no persona {persona_id} in this workspace")
    return await place_ai_call(session, contact, persona=persona, reason=reason)
