"""The AI responder's numbers over a range (GET /v1/ai/stats; docs/ai.md, "Its numbers").

Every figure is about the range's **conversations**: the contacts with an inbound text
(SMS or WhatsApp) in [start, end), read from `messages` through its (workspace_id,
updated_at, id) index (an inbound text's updated_at is never before its created_at, so
`updated_at >= start` bounds the scan by the range's start). What happened to those
contacts in the range is then read through their own indexes: `ai_jobs` (workspace_id,
contact_id, status), `ai_actions` (workspace_id, contact_id, id), `timeline_events`
(workspace_id, contact_id, type, id), `suppressions` (workspace_id, address, lifted_at)
and a reply's `messages` by its primary key. Each statement is an aggregate (a count, a
sum, a group); a percentile is one row read at its rank (ORDER BY, LIMIT 1 OFFSET k).
Every table joined is filtered by the session's workspace: another workspace's rows are
never counted.
"""

import math
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, distinct, exists, false, func, or_, select, true

from homebase.ai import repository
from homebase.ai.records import Window
from homebase.ai.schemas import AiOptOuts, AiStats
from homebase.db.tenancy import TenantSession
from homebase.kit.clock import isoformat
from homebase.kit.errors import ValidationFailed
from homebase.messaging.opt_outs import REASON as OPT_OUT
from homebase.models import AiAction, AiJob, Message, Persona, Suppression, TimelineEvent

messages = Message.__table__
jobs = AiJob.__table__
actions = AiAction.__table__
timeline = TimelineEvent.__table__
suppressions = Suppression.__table__
personas = Persona.__table__
reply = messages.alias("reply")  # an AI reply, beside the conversation's texts
lead = messages.alias("lead")  # the lead's latest text before a reply

MAX_DAYS = 92
DEFAULT_DAYS = 30
TEXTS = repository.TEXT_CHANNELS
FIRST = datetime.min.replace(tzinfo=UTC)
RANKS = (0.5, 0.9)  # the median and the 90th percentile


async def window(
    session: TenantSession,
    start: datetime | None,
    end: datetime | None,
    persona_id: str | None,
) -> Window:
    """The range asked for, checked: `to` defaults to now, `from` to DEFAULT_DAYS before
    `to`; `from` before `to`, at most MAX_DAYS apart; `persona_id` one of the workspace's
    personas. Every failing parameter is named in the one 400."""
    end = end if end is not None else session.now()
    if start is None:  # the earliest time there is, for a `to` within the first days
        start = max(end, FIRST + timedelta(days=DEFAULT_DAYS)) - timedelta(days=DEFAULT_DAYS)
    failures: list[tuple[str, str]] = []
    if start >= end:
        failures.append(("from", "must be before to"))
    elif end - start > timedelta(days=MAX_DAYS):
        failures.append(("to", f"must be at most {MAX_DAYS} days after from"))
    if persona_id is not None:
        found = await session.fetch_one(
            session.select(personas, personas.c.id).where(personas.c.id == persona_id)
        )
        if found is None:
            failures.append(("persona_id", "is not a persona of this workspace"))
    if failures:
        raise ValidationFailed.for_fields(failures, location="query")
    return Window(start=start, end=end, persona_id=persona_id)


async def stats(session: TenantSession, window: Window) -> AiStats:
    texts = _texts(session.workspace_id, window)
    contacts = select(messages.c.contact_id).where(*texts)
    senders = select(messages.c.from_address).where(*texts)
    conversations = await session.fetch_one(
        session.select(messages, func.count(distinct(messages.c.contact_id)).label("n")).where(
            *texts
        )
    )
    replied = await session.fetch_one(
        _replies(session, window, contacts).with_only_columns(
            func.count(jobs.c.id).label("n"),
            func.count(distinct(jobs.c.contact_id)).label("engaged"),
        )
    )
    sent = _count(replied)
    seconds = [await _rank(session, window, contacts, rank, sent) for rank in RANKS]
    handoffs, withheld = await _handoffs(session, window, contacts)
    return {
        "from": isoformat(window["start"]),
        "to": isoformat(window["end"]),
        "persona_id": window["persona_id"],
        "conversations": _count(conversations),
        "engaged": _count(replied, "engaged"),
        "replies_sent": sent,
        "reply_seconds_median": seconds[0],
        "reply_seconds_p90": seconds[1],
        "showings_booked": await _showings(session, window, contacts),
        "qualification_values_set": await _qualification(session, window, contacts),
        "handoffs": handoffs,
        "opt_outs": await _opt_outs(session, window, senders),
        "replies_withheld": withheld,
    }


def _count(row: Mapping[str, object] | None, name: str = "n") -> int:
    """An aggregate's value (a count, a sum: NULL over no rows) as an int."""
    value = row.get(name) if row is not None else None
    return int(value) if isinstance(value, int | float | Decimal) else 0


def _texts(own: str, window: Window) -> list[ColumnElement[bool]]:
    """The range's inbound texts from contacts; with a persona, of contacts whose texts
    an AI job of the persona took in the range (opened before its end, last changed at
    or after its start)."""
    start, end = window["start"], window["end"]
    conditions = [
        messages.c.workspace_id == own,
        messages.c.updated_at >= start,
        messages.c.created_at >= start,
        messages.c.created_at < end,
        messages.c.direction == "INBOUND",
        messages.c.channel.in_(TEXTS),
        messages.c.contact_id.is_not(None),
    ]
    if window["persona_id"] is not None:
        conditions.append(
            exists().where(
                jobs.c.workspace_id == own,
                jobs.c.contact_id == messages.c.contact_id,
                jobs.c.persona_id == window["persona_id"],
                jobs.c.created_at < end,
                jobs.c.updated_at >= start,
            )
        )
    return conditions


def _of_persona(job_id: ColumnElement[Any], own: str, window: Window) -> ColumnElement[bool]:
    """A row a job of the window's persona made; with no persona, every row. A row that
    names no job (a keyword's opt-out, a text's handoff) is the conversation's."""
    if window["persona_id"] is None:
        return true()
    return or_(
        job_id.is_(None),
        exists().where(
            jobs.c.workspace_id == own,
            jobs.c.id == job_id,
            jobs.c.persona_id == window["persona_id"],
        ),
    )


def _replies(session: TenantSession, window: Window, contacts: Select[Any]) -> Select[Any]:
    """The conversations' AI replies (a job's `reply_message_id`) the provider took in
    the range."""
    statement = (
        session.select(jobs, jobs.c.id)
        .join(
            reply,
            and_(
                reply.c.id == jobs.c.reply_message_id, reply.c.workspace_id == session.workspace_id
            ),
        )
        .where(
            jobs.c.contact_id.in_(contacts),
            reply.c.sent_at >= window["start"],
            reply.c.sent_at < window["end"],
        )
    )
    if window["persona_id"] is not None:
        statement = statement.where(jobs.c.persona_id == window["persona_id"])
    return statement


def _seconds(session: TenantSession) -> ColumnElement[Any]:
    """Seconds from the lead's latest text before the reply (by id: ids are time-ordered)
    to the provider taking the reply."""
    latest = (
        select(lead.c.created_at)
        .where(
            lead.c.workspace_id == session.workspace_id,
            lead.c.contact_id == jobs.c.contact_id,
            lead.c.direction == "INBOUND",
            lead.c.channel.in_(TEXTS),
            lead.c.id < reply.c.id,
        )
        .order_by(lead.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    if session.dialect == "postgresql":
        return func.extract("epoch", reply.c.sent_at - latest)
    return (func.julianday(reply.c.sent_at) - func.julianday(latest)) * 86400.0


async def _rank(
    session: TenantSession, window: Window, contacts: Select[Any], rank: float, n: int
) -> float | None:
    """The value at `rank` (nearest rank: the ceil(rank * n)-th smallest), or None."""
    if not n:
        return None
    seconds = _seconds(session).label("seconds")
    row = await session.fetch_one(
        _replies(session, window, contacts)
        .with_only_columns(seconds)
        .order_by(seconds)
        .limit(1)
        .offset(max(math.ceil(rank * n) - 1, 0))
    )
    if row is None or row["seconds"] is None:
        return None
    return round(float(row["seconds"]), 3)


async def _showings(session: TenantSession, window: Window, contacts: Select[Any]) -> int:
    row = await session.fetch_one(
        session.select(actions, func.count(actions.c.id).label("n")).where(
            actions.c.contact_id.in_(contacts),
            actions.c.tool == "book_showing",
            actions.c.outcome == "performed",
            actions.c.created_at >= window["start"],
            actions.c.created_at < window["end"],
            _of_persona(actions.c.ai_job_id, session.workspace_id, window),
        )
    )
    return _count(row)


def _in_range(window: Window, kind: str, contacts: Select[Any]) -> tuple[ColumnElement[bool], ...]:
    return (
        timeline.c.contact_id.in_(contacts),
        timeline.c.type == kind,
        timeline.c.occurred_at >= window["start"],
        timeline.c.occurred_at < window["end"],
    )


async def _qualification(session: TenantSession, window: Window, contacts: Select[Any]) -> int:
    """The values set_qualification wrote: the `changes` of its timeline entries."""
    data = timeline.c.data
    if session.dialect == "postgresql":
        values = func.jsonb_array_length(data["changes"])
    else:
        values = func.json_array_length(data, "$.changes")
    row = await session.fetch_one(
        session.select(timeline, func.sum(values).label("n")).where(
            *_in_range(window, "ai_action", contacts),
            data["tool"].as_string() == "set_qualification",
            _of_persona(data["ai_job_id"].as_string(), session.workspace_id, window),
        )
    )
    return _count(row)


async def _handoffs(
    session: TenantSession, window: Window, contacts: Select[Any]
) -> tuple[dict[str, int], dict[str, int]]:
    """Handoffs by reason, and the replies they withheld by rule (the `ai_handoff`
    timeline entries, ai/service.withheld_by)."""
    data = timeline.c.data
    reason = data["reason"].as_string().label("reason")
    rule = data["rule"].as_string().label("rule")
    rows = await session.fetch_all(
        session.select(timeline, reason, rule, func.count(timeline.c.id).label("n"))
        .where(
            *_in_range(window, "ai_handoff", contacts),
            _of_persona(data["ai_job_id"].as_string(), session.workspace_id, window),
        )
        .group_by(reason, rule)
    )
    handoffs: dict[str, int] = {}
    withheld: dict[str, int] = {}
    for row in rows:
        handoffs[row["reason"]] = handoffs.get(row["reason"], 0) + int(row["n"])
        if row["rule"] is not None:
            withheld[row["rule"]] = withheld.get(row["rule"], 0) + int(row["n"])
    return handoffs, withheld


async def _opt_outs(session: TenantSession, window: Window, senders: Select[Any]) -> AiOptOuts:
    """Opt-out suppressions of the conversations' numbers made in the range, by who read
    them: the model (`ai_classified` in the evidence) or the opt-out rule."""
    evidence = suppressions.c.evidence
    model = func.coalesce(evidence["ai_classified"].as_boolean(), false()).label("model")
    rows = await session.fetch_all(
        session.select(suppressions, model, func.count(suppressions.c.id).label("n"))
        .where(
            suppressions.c.address.in_(senders),
            suppressions.c.reason == OPT_OUT,
            suppressions.c.created_at >= window["start"],
            suppressions.c.created_at < window["end"],
            _of_persona(evidence["ai_job_id"].as_string(), session.workspace_id, window),
        )
        .group_by(model)
    )
    counts = {bool(row["model"]): int(row["n"]) for row in rows}
    return {"keyword": counts.get(False, 0), "model": counts.get(True, 0)}
