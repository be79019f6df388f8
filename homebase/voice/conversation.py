"""One AI call's conversation over ConversationRelay (docs/voice.md, "During the call").

The provider speaks the `welcomeGreeting` (the disclosure: voice/service.greeting) before
anything else, then sends what the caller says. In: `setup`, `prompt` (with `last` when
the caller finished a turn), `interrupt` (the caller spoke over the AI: only
`utteranceUntilInterrupt` of its words was heard), `dtmf`, `error`. Out: `text` tokens, a
sentence each, the turn's last with `last: true`, and `end` with `handoffData` (a JSON
string the `<Connect action>` callback receives: voice/callbacks.py).

A caller's turn, in order:

1. a request not to be called ("don't call me", "stop calling", or an opt-out of texts:
   messaging/keywords.py) ends the call politely; calls are revoked with the words as
   evidence (calls/revocations.py), and texts too when the words opt out of them;
2. a request for a person (or another of ai/rules.handoff_reason's reasons): a warm
   transfer to the contact's owner's phone inside the persona's hours, else a handoff;
3. otherwise the model answers as the persona, with the texts' context, tools and rules
   (ai/context.py, ai/actions.py); its `opt_out` and `handoff` are 1 and 2. Its reply is
   checked sentence by sentence before any of it is spoken: the rules of an AI text
   (ai/rules.refusal: no link, email or number but the persona's own; ai/safe_words)
   and no claim of an act not done (ai/action_rules.unverified_claim). A sentence that
   breaks one is not said: the sentences before it are, then a holding line, and the
   call ends with a handoff.

Silence: after the AI finishes speaking (or the greeting), HOMEBASE_VOICE_SILENCE_SECONDS
without a word prompts once ("Are you still there?"), then ends the call. At
HOMEBASE_VOICE_MAX_MINUTES the call ends politely. Both are timers on `sleep` (injectable:
tests pass their own).

The transcript (both sides) is written to the voice call after every turn.
"""

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from homebase.ai import action_rules, actions, context, rules, safe_words
from homebase.ai import repository as ai_repository
from homebase.ai import service as ai_service
from homebase.ai.prompt import MAX_ROUNDS, ModelAnswer, ModelFailure, ToolRound
from homebase.ai.providers import loaded
from homebase.ai.records import Text
from homebase.automations import persona_texts
from homebase.automations.records import PersonaRecord
from homebase.calls import revocations
from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts_service
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.members import repository as members_repository
from homebase.messaging import keywords, opt_outs
from homebase.messaging import repository as messaging_repository
from homebase.runtime import Runtime
from homebase.voice import repository, service
from homebase.voice.records import EndMessage, HandoffData, Line, Outgoing, TextToken

log = logging.getLogger("homebase.voice")
Send = Callable[[Outgoing], Awaitable[None]]
Incoming = Mapping[str, object]  # a ConversationRelay message, parsed JSON
Sleep = Callable[[float], Awaitable[None]]
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
STILL_THERE = "Are you still there?"
GOODBYE_SILENT = "I'll let you go for now. Goodbye!"
GOODBYE_LONG = "I need to let you go now. Someone from the team will follow up. Goodbye!"
GOODBYE_OPT_OUT = "Understood. We won't call you again. Goodbye!"
SEGMENTS = 10  # a spoken sentence is never an SMS: the rules' length check is generous


@dataclass
class Ended:
    reason: str  # opted_out, transfer, handoff, silence, max_minutes, caller, error
    detail: str | None = None
    to: str | None = None  # a transfer's number


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE.split(text.strip()) if part.strip()]


class Conversation:
    def __init__(
        self,
        runtime: Runtime,
        workspace_id: str,
        call_id: str,
        send: Send,
        *,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.runtime = runtime
        self.workspace_id = workspace_id
        self.call_id = call_id
        self._send = send
        self.sleep = sleep
        self.lines: list[Line] = []
        self.ended: Ended | None = None
        self.booked = False
        self._lock = asyncio.Lock()
        self._silence: asyncio.Task[None] | None = None
        self._limit: asyncio.Task[None] | None = None
        self.turn_seconds: list[float] = []  # a final prompt in to the first token out

    # -- the transport ---------------------------------------------------------------

    async def send(self, message: Outgoing) -> None:
        async with self._lock:
            await self._send(message)

    async def say(self, parts: list[str]) -> None:
        for index, sentence in enumerate(parts):
            token: TextToken = {"type": "text", "token": sentence, "last": index == len(parts) - 1}
            await self.send(token)
            self.lines.append({"speaker": "ai", "text": sentence})

    async def end(self, ended: Ended, goodbye: str | None = None) -> None:
        if self.ended is not None:
            return
        self.ended = ended
        self._cancel_silence()
        if goodbye:
            await self.say([goodbye])
        handoff: HandoffData = {"reason": ended.reason, "detail": ended.detail, "to": ended.to}
        end: EndMessage = {"type": "end", "handoffData": json.dumps(handoff)}
        await self.send(end)
        await self.save(handoff=handoff)

    # -- the state -------------------------------------------------------------------

    def session(self, connection: Any) -> TenantSession:
        return TenantSession(connection, self.workspace_id, clock=self.runtime.clock, actor="ai")

    async def load(self) -> tuple[ContactRecord | None, PersonaRecord | None]:
        async with self.runtime.db.transaction(write=False) as connection:
            session = self.session(connection)
            row = await repository.get(session, self.call_id)
            if row is None:
                return None, None
            contact = (
                await contacts_repository.get(session, row["contact_id"])
                if row["contact_id"]
                else None
            )
            persona = await ai_repository.persona(session, row["persona_id"])
            return contact, persona

    async def save(self, **values: Any) -> None:
        async with self.runtime.db.transaction() as connection:
            await repository.update(
                self.session(connection), self.call_id, transcript=list(self.lines), **values
            )

    async def started(self, setup: Incoming) -> None:
        """`setup`: the call is live; its job (the tools' log) is opened; timers start. A
        call a status callback already ended stays ended: nothing starts."""
        async with self.runtime.db.transaction() as connection:
            session = self.session(connection)
            row = await repository.go_live(session, self.call_id)
            if row is None:
                self.ended = Ended("caller", "the call ended before its stream started")
                return
            values: dict[str, object] = {}
            contact = (
                await contacts_repository.get(session, row["contact_id"])
                if row["contact_id"]
                else None
            )
            persona = await ai_repository.persona(session, row["persona_id"])
            if persona is not None and not self.lines:
                number = row["from_number"] if row["direction"] == "outbound" else row["to_number"]
                spoken = await service.greeting(
                    session,
                    contact,
                    persona=persona,
                    callback_number=number,
                    inbound=row["direction"] == "inbound",
                )
                self.lines.append({"speaker": "ai", "text": spoken})
            values["transcript"] = list(self.lines)
            if setup.get("callSid") and not row["provider_call_sid"]:
                values["provider_call_sid"] = str(setup["callSid"])[:64]
            if row["ai_job_id"] is None and row["contact_id"] is not None:
                values["ai_job_id"] = await _open_job(session, row["contact_id"], row)
            await repository.update(session, self.call_id, **values)
        self._limit = asyncio.create_task(self._max_minutes())
        self.arm_silence()

    # -- timers ----------------------------------------------------------------------

    def arm_silence(self) -> None:
        self._cancel_silence()
        if self.ended is None:
            self._silence = asyncio.create_task(self._silent())

    def _cancel_silence(self) -> None:
        if self._silence is not None and self._silence is not asyncio.current_task():
            self._silence.cancel()
        self._silence = None

    async def _silent(self) -> None:
        seconds = self.runtime.settings.voice_silence_seconds
        await self.sleep(seconds)
        if self.ended is not None:
            return
        await self.say([STILL_THERE])
        await self.sleep(seconds)
        if self.ended is None:
            await self.end(Ended("silence"), GOODBYE_SILENT)

    async def _max_minutes(self) -> None:
        await self.sleep(self.runtime.settings.voice_max_minutes * 60)
        if self.ended is None:
            await self.end(Ended("max_minutes"), GOODBYE_LONG)

    def close(self) -> None:
        self._cancel_silence()
        if self._limit is not None:
            self._limit.cancel()

    # -- what comes in ---------------------------------------------------------------

    async def receive(self, message: Incoming) -> None:
        kind = message.get("type")
        if kind == "setup":
            await self.started(message)
        elif kind == "prompt":
            self._cancel_silence()
            if message.get("last", True):
                said = str(message.get("voicePrompt") or "").strip()
                if said:
                    await self.turn(said[:2000])
                if self.ended is None:
                    self.arm_silence()
        elif kind == "interrupt":
            self.interrupted(str(message.get("utteranceUntilInterrupt") or ""))
        elif kind == "dtmf":
            self._cancel_silence()
            self.lines.append({"speaker": "lead", "text": f"(pressed {message.get('digit')})"})
            self.arm_silence()
        elif kind == "error":
            log.warning("voice call %s: relay error %s", self.call_id, message.get("description"))

    def interrupted(self, heard: str) -> None:
        """The caller spoke over the AI: only `heard` of its last turn was said. The AI's
        lines of that turn are replaced by what was heard (nothing, when nothing was)."""
        self._cancel_silence()
        spoken: list[int] = []
        for index in range(len(self.lines) - 1, 0, -1):  # never the greeting (line 0)
            if self.lines[index]["speaker"] != "ai":
                break
            spoken.insert(0, index)
        if not spoken:
            return
        del self.lines[spoken[0] :]
        if heard.strip():
            self.lines.append({"speaker": "ai", "text": heard.strip()})

    async def turn(self, said: str) -> None:
        started = time.perf_counter()
        self.lines.append({"speaker": "lead", "text": said})
        first_token = len(self.lines)
        try:
            await self._turn(said)
        finally:
            if len(self.lines) > first_token:
                self.turn_seconds.append(time.perf_counter() - started)
            if self.ended is None:
                await self.save()

    async def _turn(self, said: str) -> None:
        keyword = keywords.classify(said)
        if keyword is not None and keyword.kind in (keywords.NO_CALLS, keywords.OPT_OUT):
            await self.opt_out(said, texts=keyword.kind == keywords.OPT_OUT)
            return
        reason = rules.handoff_reason(said)
        if reason is not None:
            await self.hand_off(reason, said)
            return
        contact, persona = await self.load()
        if contact is None or persona is None or contact["anonymized_at"] is not None:
            await self.end(Ended("error", "the contact or persona is gone"), GOODBYE_SILENT)
            return
        answered, planned = await self.compose(contact, persona)
        if answered is None:
            await self.hand_off("provider_error", "the model did not answer")
            return
        if answered.opt_out:
            await self.opt_out(said, texts=False)
            return
        if answered.handoff:
            await self.hand_off("model", answered.handoff_reason)
            return
        done = await self.perform(contact, persona, planned) if planned else []
        reply = (answered.reply or "").strip()
        if not reply:
            if done:
                await self.hand_off("model", "the assistant acted without a reply")
            return
        await self.speak(contact, persona, reply, done)

    async def compose(
        self, contact: ContactRecord, persona: PersonaRecord
    ) -> tuple[ModelAnswer | None, list[actions.Planned]]:
        async with self.runtime.db.transaction(write=False) as connection:
            session = self.session(connection)
            row = await repository.get(session, self.call_id)
            job_id = row["ai_job_id"] if row else None
            desk = (
                await actions.desk(session, job_id, contact, persona)
                if persona["actions"] and job_id
                else None
            )
            signer = await persona_texts.signer(session, contact, persona)
            prompt = await context.build(
                session,
                contact,
                persona,
                [_text(line, job_id) for line in self.lines[-20:]],
                {language: "" for language in persona["languages"] or ("en", "es")},
                segments_allowed=2,
                added=ai_service.added(persona, signer),
                desk=desk,
            )
        responder = await loaded(self.runtime.settings)
        planned: list[actions.Planned] = []
        for number in range(1, MAX_ROUNDS + 1):
            prompt = replace(prompt, last_round=number == MAX_ROUNDS)
            try:
                answered = await asyncio.wait_for(
                    responder.answer(prompt), self.runtime.settings.ai_timeout_seconds
                )
            except (ModelFailure, TimeoutError):
                return None, planned
            if not answered.tool_calls:
                return answered, planned
            if desk is None:
                return ModelAnswer(reply=None, handoff=True, handoff_reason="tools"), planned
            results: list[str] = []
            async with self.runtime.db.transaction(write=False) as connection:
                session = self.session(connection)
                for call in answered.tool_calls:
                    result, accepted = await actions.check(session, desk, call)
                    results.append(result)
                    if accepted is not None:
                        planned.append(accepted)
            prompt = replace(
                prompt, rounds=(*prompt.rounds, ToolRound(answered.tool_calls, tuple(results)))
            )
        return ModelAnswer(reply=None, handoff=True, handoff_reason="too many rounds"), planned

    async def perform(
        self, contact: ContactRecord, persona: PersonaRecord, planned: list[actions.Planned]
    ) -> list[actions.Performed]:
        async with self.runtime.db.transaction() as connection:
            session = self.session(connection)
            row = await repository.get(session, self.call_id)
            if row is None or row["ai_job_id"] is None:
                return []
            desk = await actions.desk(session, row["ai_job_id"], contact, persona)
            done = await actions.perform_all(session, desk, planned)
        if any(item.tool == "book_showing" and item.outcome == actions.PERFORMED for item in done):
            self.booked = True
        return done

    async def speak(
        self,
        contact: ContactRecord,
        persona: PersonaRecord,
        reply: str,
        done: list[actions.Performed],
    ) -> None:
        """The reply, a sentence at a time, each checked before it is said."""
        made = {item.tool for item in done if item.outcome in (actions.PERFORMED, actions.ALREADY)}
        claim = action_rules.unverified_claim(reply, made)
        if claim is not None:
            await self.hand_off("unverified_commitment", f"the reply said {claim}")
            return
        async with self.runtime.db.transaction(write=False) as connection:
            session = self.session(connection)
            links = [*(persona["links"] or ()), *await ai_repository.listing_urls(session)]
            amounts = set(await ai_repository.listing_prices(session))
        for line in self.lines:
            if line["speaker"] == "lead":
                amounts |= safe_words.lead_amounts(line["text"])
        parts = sentences(reply)
        for index, sentence in enumerate(parts):
            text = rules.sendable(sentence)
            broken = rules.refusal(text, links, persona["phone"], segments_allowed=SEGMENTS)
            broken = broken or safe_words.check(text, amounts)
            if broken is not None:
                if index:
                    await self.say(parts[:index])
                await self.hand_off("reply_rule", broken)
                return
        await self.say(parts)

    # -- endings ---------------------------------------------------------------------

    async def opt_out(self, said: str, *, texts: bool) -> None:
        """Calls revoked (texts too when the words say so), with the words as evidence."""
        async with self.runtime.db.transaction() as connection:
            session = self.session(connection)
            row = await repository.get(session, self.call_id)
            number = _other_party(row) if row else None
            if row is not None and number:
                evidence = {
                    "voice_call_id": row["id"],
                    "provider_call_sid": row["provider_call_sid"],
                    "said": said,
                    "at": session.now().isoformat(),
                }
                await revocations.revoke(
                    session,
                    address=number,
                    contact_id=row["contact_id"],
                    phrase=said.upper(),
                    evidence=evidence,
                )
                if texts:  # the words opt out of texts too: suppressed as a STOP is
                    await messaging_repository.suppress(
                        session,
                        kind="phone",
                        address=number,
                        reason=opt_outs.REASON,
                        evidence=evidence,
                    )
                    contact = (
                        await contacts_repository.get(session, row["contact_id"])
                        if row["contact_id"]
                        else None
                    )
                    if contact is not None:
                        await contacts_service.set_ai_pause(
                            session, contact, reason=contacts_service.PAUSE_OPT_OUT
                        )
        await self.end(Ended("opted_out", said[:200]), GOODBYE_OPT_OUT)

    async def hand_off(self, reason: str, detail: str | None) -> None:
        """A warm transfer to the owner's phone inside the persona's hours, else a
        handoff (the `<Connect action>` callback makes its task)."""
        contact, persona = await self.load()
        agent = "the team"
        phone = None
        if contact is not None and persona is not None:
            async with self.runtime.db.transaction(write=False) as connection:
                session = self.session(connection)
                signer = await persona_texts.signer(session, contact, persona)
                agent = signer["agent_first_name"] or agent
                phone = await _transfer_to(session, contact, persona, session.now())
        if phone is not None and reason in (rules.PERSON, "model"):
            await self.end(
                Ended("transfer", detail, to=phone), f"Let me connect you with {agent} now."
            )
            return
        await self.end(
            Ended("handoff", f"{reason}: {detail}" if detail else reason),
            f"I'll have {agent} follow up with you on that shortly. Goodbye!",
        )


def _text(line: Line, job_id: str | None) -> Text:
    ai = line["speaker"] == "ai"
    return {
        "direction": "OUTBOUND" if ai else "INBOUND",
        "body": line["text"],
        "ai_generated": ai,
        "ai_job_id": (job_id or "voice") if ai else None,
        "status": "SENT",
    }


def _other_party(row: Any) -> str | None:
    number = row["to_number"] if row["direction"] == "outbound" else row["from_number"]
    return str(number) if number else None


async def _open_job(session: TenantSession, contact_id: str, row: Any) -> str:
    """The call's AI job: what its tools' actions are logged under (ai_actions), status
    `voice` (never queued: the texts' responder never claims it)."""
    now = session.now()
    job_id = new_id("aij")
    await session.insert(
        ai_repository.jobs,
        {
            "id": job_id,
            "contact_id": contact_id,
            "persona_id": row["persona_id"],
            "channel": "VOICE",
            "status": "voice",
            "inbound_count": 0,
            "composed_count": 0,
            "last_inbound_id": row["id"],
            "last_inbound_at": now,
            "attempts": 0,
            "next_attempt_at": None,
            "lease_token": None,
            "lease_expires_at": None,
            "outcome": None,
            "reply_message_id": None,
            "created_at": now,
            "updated_at": now,
        },
    )
    return job_id


async def _transfer_to(
    session: TenantSession, contact: ContactRecord, persona: PersonaRecord, now: datetime
) -> str | None:
    """The contact's owner's phone when the owner is a member with one and `now` is
    inside the persona's hours (its showing hours, in the workspace's time zone)."""
    from homebase.ai import showings
    from homebase.workspaces.time_zone import time_zone

    owner = contact["owner_id"]
    if not owner:
        return None
    member = await members_repository.get(session, owner) if owner else None
    if member is None or member["removed_at"] is not None or not member["phone"]:
        return None
    local = now.astimezone(await time_zone(session))
    hours = showings.hours_of(persona["showing_hours"]).get(showings.DAYS[local.weekday()])
    if hours is None or not hours[0] <= local.time().replace(tzinfo=None) < hours[1]:
        return None
    return str(member["phone"])
