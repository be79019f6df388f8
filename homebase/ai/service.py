"""When the AI answers a text, and how it hands a lead to a person (docs/ai.md).

`on_inbound` runs in the inbound callback's transaction for a text that is no keyword
(opt-out, opt-in and HELP are answered by messaging/inbound.py and never reach here).
A text for the contact's open job joins it (the job's compose reads it). Otherwise it
opens the contact's AI job when:

- the contact exists, is not erased and its AI is not paused;
- the workspace is active and has a responder persona that uses the text's channel;
- the number is not suppressed and holds an unexpired, unrevoked consent artifact
  (the consent gate's own check: "AI will not text the lead until consent is captured").

The job is due (`next_attempt_at`) once the lead has been quiet for the quiet window
(HOMEBASE_AI_QUIET_SECONDS) after their latest text, and at the latest the longest wait
(HOMEBASE_AI_MAX_WAIT_SECONDS) after the first text it answers (`Wait`, `due`). The
callback only records a text that joins an open job; the worker decides: a job it
claims before it is due by the texts since is put back until then (ai/jobs.py), else it
composes and sends the reply. `hand_off` (a job's)
and `hand_off_text` (a text's) take the one handoff path, `_hand_off`: the AI pauses, the
persona's holding text goes out when it has one (a job's only), a person gets a task they
can act on (ai/handoff.py), the timeline records it and `ai.handoff` is emitted. The
routing rotation does not move.
"""

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from homebase.ai import handoff as handoffs
from homebase.ai import languages, outreach, repository, rules, safe_words
from homebase.ai.handoff import Handoff
from homebase.ai.records import AiJobRecord, HandoffEvent
from homebase.automations import persona_texts
from homebase.automations.persona_texts import Signer
from homebase.automations.records import PersonaRecord
from homebase.config import Settings
from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts
from homebase.contacts import timeline
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit import logs
from homebase.kit.clock import isoformat
from homebase.kit.errors import ComplianceBlocked
from homebase.kit.ids import new_id
from homebase.kit.masking import mask_freeform
from homebase.messaging import opt_outs
from homebase.messaging import repository as messaging_repository
from homebase.messaging import service as messaging
from homebase.messaging.records import MessageRecord
from homebase.metrics import AI_OUTCOMES
from homebase.outbox.service import emit
from homebase.tasks.schemas import TaskCreate, TaskPriority
from homebase.tasks.service import create_task
from homebase.workspaces import references

log = logging.getLogger("homebase.ai")
DISCLOSURE_EVERY = timedelta(days=30)
DAY = timedelta(hours=24)  # the daily cap's rolling window
DETAIL_CHARS = 200  # of a handoff's detail in the task's notes, after masking
CONVERSATION_TEXTS = 20  # the texts whose amounts a reply may state (ai/context.py's turns)


@dataclass(frozen=True)
class Wait:
    """How long a reply waits for the lead to finish: `quiet` after their latest text, at
    most `longest` after the first text it answers (the job's `created_at`)."""

    quiet: timedelta
    longest: timedelta

    @classmethod
    def of(cls, settings: Settings) -> "Wait":
        return cls(
            timedelta(seconds=settings.ai_quiet_seconds),
            timedelta(seconds=settings.ai_max_wait_seconds),
        )

    def due(self, first: datetime, latest: datetime) -> datetime:
        """When a job whose first text arrived at `first` and latest at `latest` is due."""
        return min(latest + self.quiet, first + self.longest)


async def on_inbound(
    session: TenantSession, message: MessageRecord, *, contact: ContactRecord | None, wait: Wait
) -> str | None:
    """The id of the AI job that will answer `message`, or None (see the module)."""
    if contact is None or contact["anonymized_at"] is not None:
        return None
    if contact["ai_paused_at"] is not None:
        return None
    at = message["created_at"]
    # A text for the contact's open job joins it: the job was opened under the rules
    # below, and composing and sending check them again (the pause, the persona, the gates).
    job_id = await repository.add_inbound(session, contact["id"], message["id"], at)
    if job_id is not None:
        return job_id
    address = message["from_address"] or ""  # an inbound text always has its sender
    ready = await repository.readiness(session, address)
    if ready is None or message["channel"] not in {c.upper() for c in ready["channels"]}:
        return None
    if ready["status"] != "active" or ready["suppressed"] or not ready["consented"]:
        return None
    return await _open_or_extend(session, message, contact, ready["id"], wait)


async def due(session: TenantSession, job: AiJobRecord, *, wait: Wait) -> datetime:
    """When the open `job` is due: the quiet window after the contact's latest text, at
    most the longest wait after its first (`created_at`). The worker's to ask when it
    claims the job (ai/jobs.py): a text joining a queued job writes nothing to it."""
    latest = await repository.latest_inbound_at(session, job["contact_id"])
    return wait.due(job["created_at"], latest or job["created_at"])


async def _open_or_extend(
    session: TenantSession,
    message: MessageRecord,
    contact: ContactRecord,
    persona_id: str,
    wait: Wait,
) -> str | None:
    at = message["created_at"]
    # A concurrent text may open the job, or a claim start composing it, between these
    # statements: each turn finds the state the other left.
    for _ in range(3):
        job_id = await repository.add_inbound(session, contact["id"], message["id"], at)
        if job_id is not None:  # the worker knows of it already: no wake-up
            return job_id
        row: AiJobRecord = {
            "id": new_id("aij"),
            "contact_id": contact["id"],
            "persona_id": persona_id,
            "channel": message["channel"],
            "status": "queued",
            "inbound_count": 1,
            "composed_count": 0,
            "last_inbound_id": message["id"],
            "last_inbound_at": at,
            "attempts": 0,
            "next_attempt_at": wait.due(at, at),
            "lease_token": None,
            "lease_expires_at": None,
            "outcome": None,
            "reply_message_id": None,
            "created_at": at,
            "updated_at": at,
        }
        if await repository.insert_open(session, row):
            session.mark_work()  # the worker looks again, and answers once it is due
            return str(row["id"])
    return None


@dataclass(frozen=True)
class Holding:
    """What the persona's holding text needs: the job, the sender's email address, the
    segments an AI text may take (HOMEBASE_AI_MAX_SEGMENTS)."""

    job: AiJobRecord
    email_from: str
    segments_allowed: int


async def _assignee(
    session: TenantSession, contact: ContactRecord, persona: PersonaRecord | None
) -> str | None:
    """The contact's owner, else the persona's handoff assignee, else nobody: each only
    while it is a member of the workspace."""
    handoff_assignee = persona["handoff_assignee"] if persona is not None else None
    for candidate in (contact["owner_id"], handoff_assignee):
        if candidate and await references.member_exists(session, candidate):
            return str(candidate)
    return None


async def hand_off(
    session: TenantSession,
    job: AiJobRecord,
    *,
    contact: ContactRecord,
    persona: PersonaRecord,
    handoff: Handoff,
    email_from: str,
    segments_allowed: int,
) -> None:
    """The job's lead goes to a person (`_hand_off`), with the persona's handoff_reply
    (in the conversation's language) sent when it has one."""
    texts = await repository.unanswered(session, contact["id"], job["last_inbound_id"])
    await _hand_off(
        session,
        contact,
        persona,
        handoff,
        cause=("ai_job_id", job["id"]),
        texts=[row["body"] for row in texts if row["body"]],
        holding=Holding(job, email_from, segments_allowed),
    )


async def hand_off_text(
    session: TenantSession, message: MessageRecord, *, contact: ContactRecord | None, reason: str
) -> None:
    """A text the AI must not answer and a person must read (a request not to be called,
    messaging/inbound.py): the lead goes to a person as `hand_off` does (`_hand_off`),
    without a job and without the persona's holding text: the lead asked for nothing to
    be sent."""
    if contact is None or contact["anonymized_at"] is not None:
        return
    ready = await repository.readiness(session, message["from_address"] or "")
    persona = await repository.persona(session, ready["id"]) if ready is not None else None
    await _hand_off(
        session,
        contact,
        persona,
        Handoff(reason),
        cause=("message_id", message["id"]),
        texts=[message["body"]] if message["body"] else [],
        at=message["created_at"],
    )


async def _hand_off(
    session: TenantSession,
    contact: ContactRecord,
    persona: PersonaRecord | None,
    handoff: Handoff,
    *,
    cause: tuple[str, str],
    texts: list[str],
    holding: Holding | None = None,
    at: datetime | None = None,
) -> None:
    """The one handoff path. `cause`: what was handed off, as (name, id): ("ai_job_id", a
    job's) or ("message_id", a text's); `holding`: the job and the sender's address when
    the persona's holding text may be sent. In order: the AI pauses (reason `daily_limit`
    at the cap, else `handoff`; `contact.updated`); the holding text; a task for the
    contact's owner, else the persona's handoff_assignee (ai/handoff.py: its title,
    priority, due time and summary; deduplicated as tasks are); the timeline's
    `ai_handoff`; the `ai.handoff` event; the outcome counted and logged."""
    reason = handoff.reason
    pause = contacts.PAUSE_DAILY_LIMIT if reason == "daily_limit" else contacts.PAUSE_HANDOFF
    await contacts.set_ai_pause(session, contact, reason=pause, at=at)
    told = None
    if holding is not None and persona is not None:
        told = await _holding_text(session, holding, contact, persona, handoff.language)
    summary = await handoffs.summary(
        session, contact, persona, handoff=handoff, texts=texts, told=told
    )
    shown = notes_detail(handoff.detail)
    priority = handoffs.priority(handoff.urgency)
    task, _ = await create_task(
        session,
        TaskCreate(
            title=handoffs.title(contact, reason),
            contact_id=contact["id"],
            assignee_id=await _assignee(session, contact, persona),
            due_at=await handoffs.due_at(session, persona),
            notes=summary + f"\nReason: {reason}" + (f" ({shown})" if shown else ""),
            priority=TaskPriority(priority),
        ),
        source="ai",
    )
    name, cause_id = cause
    entry: dict[str, str] = {name: cause_id, "reason": reason, "task_id": task["id"]}
    rule = withheld_by(handoff)
    if rule is not None:
        entry["rule"] = rule
    await timeline.record(
        session,
        contact["id"],
        "ai_handoff",
        f"AI handed off: {handoffs.phrase(reason)}"[:200],
        data=entry,
    )
    urgency = handoff.urgency if handoff.urgency in handoffs.PRIORITIES else None
    event: HandoffEvent = {
        "contact_id": contact["id"],
        "task_id": task["id"],
        "assignee_id": task["assignee_id"],
        "due_at": isoformat(task["due_at"]),
        "priority": priority,
        "reason": reason,
        "urgency": urgency,
        "summary": summary,
        "ai_job_id": cause_id if name == "ai_job_id" else None,
        "message_id": cause_id if name == "message_id" else None,
    }
    await emit(session, "ai.handoff", data=event)
    AI_OUTCOMES.labels("handed_off", reason).inc()
    # a log line's fields, as logs.event takes them
    fields: Mapping[str, Any] = {
        name: cause_id,
        "workspace_id": session.workspace_id,
        "contact_id": contact["id"],
    }
    logs.event(log, "ai handoff", **fields, reason=reason, task_id=task["id"])


# Handoffs that withhold a reply the model composed, because code refused it: the rule
# is kept on the timeline's `ai_handoff` (`rule`), which GET /v1/ai/stats counts.
WITHHELD = ("reply_rule", "unverified_commitment", "working_with_agent")


def withheld_by(handoff: Handoff) -> str | None:
    """The rule that kept the job's reply from going out, or None: a broken rule's code
    (ai/rules.refusal: too_long, email, link, phone) for `reply_rule`, else the reason
    itself (a claim without its act, another agent's client)."""
    if handoff.reason not in WITHHELD:
        return None
    if handoff.reason == "reply_rule":
        return handoff.detail or "reply_rule"
    return handoff.reason


def notes_detail(detail: str | None) -> str | None:
    """A handoff's detail as the task's notes keep it. The model's own words (its
    `handoff_reason`) may quote the lead's number or address, and a task is shown to any
    key that reads tasks, with or without contacts:read:pii: every phone number and email
    address in it is masked by value (kit.masking.mask_freeform, the rule of every
    free-form member) before it is stored, then it is cut to DETAIL_CHARS, so no cut
    leaves part of a number unmasked."""
    if not detail or not detail.strip():
        return None
    masked: str = mask_freeform(" ".join(detail.split()))
    return masked[:DETAIL_CHARS]


async def disclosure_due(session: TenantSession, contact_id: str) -> bool:
    """The first AI text to a contact, and the first after DISCLOSURE_EVERY without one,
    opens with the persona's disclosure."""
    since = session.now() - DISCLOSURE_EVERY
    return await repository.ai_replies_since(session, contact_id, since) == 0


async def at_daily_cap(session: TenantSession, contact_id: str, *, cap: int) -> bool:
    """HOMEBASE_AI_MAX_REPLIES_PER_DAY reached: `cap` AI texts to the contact in 24 hours."""
    return await repository.ai_replies_since(session, contact_id, session.now() - DAY) >= cap


def signed(
    persona: PersonaRecord, signer: Signer, *, language: str | None = None
) -> tuple[str | None, str | None]:
    """The persona's disclosure and signature in `language` (ai/languages.py), their
    placeholders filled for one contact (`signer`, automations/persona_texts.py)."""
    return (
        persona_texts.fill(languages.text(persona, "disclosure", language), signer),
        persona_texts.fill(languages.text(persona, "signature", language), signer),
    )


def added(persona: PersonaRecord, signer: Signer) -> tuple[str, ...]:
    """What the service adds to an AI text, the disclosure and the signature in every
    language of the persona, filled: left out of what the model sees and says."""
    texts = [*languages.every(persona, "disclosure"), *languages.every(persona, "signature")]
    return tuple(filled for text in texts if (filled := persona_texts.fill(text, signer)))


async def allowed_amounts(session: TenantSession, contact_id: str) -> set[int]:
    """The amounts a reply may state, in cents: the workspace's stored listing prices and
    every amount the lead wrote in the conversation (its inbound texts)."""
    found = set(await repository.listing_prices(session))
    for row in await repository.conversation(session, contact_id, CONVERSATION_TEXTS):
        if row["direction"] == "INBOUND" and row["body"]:
            found |= safe_words.lead_amounts(row["body"])
    return found


async def outgoing(
    session: TenantSession,
    persona: PersonaRecord,
    *,
    contact: ContactRecord,
    signer: Signer,
    body: str,
    disclose: bool,
    segments_allowed: int,
    language: str | None = None,
    from_model: bool = False,
) -> tuple[str, str | None]:
    """An AI text as it would go out (the disclosure when due, the signature, in
    `language`; typographic quotes and dashes in GSM-7) and the rule it breaks, or None
    (ai/rules.py): a reply and the holding text alike. A model's reply (`from_model`)
    loses the disclosure and signature it repeated, and must say only what
    ai/safe_words.py allows. `signer`: the persona's placeholders for `contact`."""
    if from_model:
        body = safe_words.strip_added(body, added(persona, signer))
    disclosure, signature = signed(persona, signer, language=language)
    text = rules.sendable(rules.assemble(body, disclosure, signature, disclose=disclose))
    allowed = [*(persona["links"] or ()), *await repository.listing_urls(session)]
    broken = rules.refusal(text, allowed, persona["phone"], segments_allowed=segments_allowed)
    if broken is None and from_model:
        amounts = await allowed_amounts(session, contact["id"])
        broken = safe_words.check(rules.sendable(body), amounts)
    return text, broken


async def _holding_text(
    session: TenantSession,
    holding: Holding,
    contact: ContactRecord,
    persona: PersonaRecord,
    language: str | None,
) -> str | None:
    """The persona's handoff_reply in `language` (its placeholders filled), under the
    rules of any AI text (ai/rules.py): what it told the lead when it was sent, else None."""
    job = holding.job
    signer = await persona_texts.signer(session, contact, persona)
    reply = persona_texts.fill(languages.text(persona, "handoff_reply", language), signer)
    if not reply:
        return None
    disclose = await disclosure_due(session, job["contact_id"])
    text, broken = await outgoing(
        session,
        persona,
        contact=contact,
        signer=signer,
        body=reply,
        disclose=disclose,
        segments_allowed=holding.segments_allowed,
        language=language,
    )
    if broken is not None:
        logs.event(log, "ai holding text not sent", ai_job_id=job["id"], rule=broken)
        return None
    try:
        await send_reply(session, job, text=text, email_from=holding.email_from)
    except ComplianceBlocked:
        return None  # the refusal is recorded (a FAILED message on the timeline)
    return reply


async def send_reply(
    session: TenantSession, job: AiJobRecord, *, text: str, email_from: str
) -> MessageRecord:
    """The AI's text through the send path every message takes (messaging.service.send):
    the same gates, from the number the lead wrote to. Raises ComplianceBlocked as that
    path does, after recording the refusal."""
    inbound = await messaging_repository.get(session, job["last_inbound_id"])
    values: dict[str, object] = {  # a request body's members, checked by request_from
        "channel": job["channel"],
        "contact_id": job["contact_id"],
        "body": text,
        "ai_generated": True,
    }
    if inbound is not None and inbound["to_address"]:
        values["from"] = inbound["to_address"]
    return await messaging.send(
        session, messaging.request_from(values), email_from=email_from, ai_job_id=job["id"]
    )


async def opt_out(
    session: TenantSession, job: AiJobRecord, *, language: str | None = None
) -> MessageRecord | None:
    """The model read the lead's texts as revoking consent (`opt_out: true`): the number is
    suppressed as for a keyword (messaging/opt_outs.py), the evidence the lead's texts
    this job answered with `ai_classified: true`, the AI pauses, and the one confirmation
    is queued, in `language` when the persona has it (ai/languages.py); the model's own
    text is never sent. The confirmation's message, or None."""
    inbound = await messaging_repository.get(session, job["last_inbound_id"])
    if inbound is None or inbound["direction"] != "INBOUND" or not inbound["from_address"]:
        return None
    texts = await repository.unanswered(session, job["contact_id"], inbound["id"])
    proof = opt_outs.evidence(inbound, ai_classified=True, ai_job_id=job["id"])
    if len(texts) > 1:
        proof["texts"] = [{"message_id": row["id"], "body": row["body"]} for row in texts]
    wording = await _confirmation_wording(session, job, language)
    sent = await opt_outs.opt_out(session, inbound, proof, in_answer=False, wording=wording)
    AI_OUTCOMES.labels("opted_out", "").inc()
    logs.event(
        log,
        "ai opt-out",
        ai_job_id=job["id"],
        workspace_id=session.workspace_id,
        contact_id=job["contact_id"],
        confirmation_id=sent["id"] if sent is not None else None,
    )
    return sent


async def _confirmation_wording(
    session: TenantSession, job: AiJobRecord, language: str | None
) -> str | None:
    """The persona's opt-out confirmation in `language`, filled; None: the workspace's."""
    persona = await repository.persona(session, job["persona_id"])
    contact = await contacts_repository.get(session, job["contact_id"])
    return await _filled_confirmation(session, persona, contact, language)


async def keyword_confirmation(
    session: TenantSession, contact: ContactRecord | None, *, language: str | None
) -> str | None:
    """An opt-out keyword's confirmation in the keyword's `language`
    (messaging/keywords.language): the responder persona's text in it, filled; None (the
    workspace's) when the language is English, the persona has none, or the number has no
    contact."""
    if language is None or contact is None:
        return None
    responder_id = await outreach.responder_id(session)
    persona = await repository.persona(session, responder_id) if responder_id else None
    return await _filled_confirmation(session, persona, contact, language)


async def _filled_confirmation(
    session: TenantSession,
    persona: PersonaRecord | None,
    contact: ContactRecord | None,
    language: str | None,
) -> str | None:
    if persona is None or contact is None or language is None:
        return None
    text = languages.text(persona, "opt_out_confirmation", language)
    signer = await persona_texts.signer(session, contact, persona)
    return persona_texts.fill(text, signer) if text else None


async def scrub_contact_ai_jobs(session: TenantSession, contact_id: str) -> None:
    """An erasure's part of the AI (erasure/registry.py): the contact's open job ends
    (nothing more is composed for it). Jobs and their action log (`ai_actions`) keep ids,
    counts and outcomes, never a text: nothing of them is scrubbed."""
    await repository.end_open_jobs(session, contact_id, "erased", session.now())
