"""The workspace inbox (docs/console.md, "Inbox"): conversations, one per contact, unread
first for the member, then by latest message; a conversation's thread with every
inbound and outbound text, WhatsApp message and email, which the AI wrote, and every
refused attempt with its reason; a reply; and "hand back to the AI".

A reply goes through `messaging.service.send_by_person`, the function POST /v1/messages
calls: the same recipient rules, the same compliance gates, a refusal recorded as a
FAILED message (its record commits, as the API's does), and a queued reply pauses the
contact's AI (human_message). Handing back is `contacts.service.switch_ai`, the function
of POST /v1/contacts/{id}/ai/resume. Reads and writes go through the member's
TenantSession; another workspace's contact is the 404 page of an unknown one."""

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from homebase.console.common import (
    PAGE_SIZE,
    field,
    keyset_page,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.sessions import Member
from homebase.contacts import service as contacts
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.http.pages import ConsolePageError
from homebase.inbox import repository
from homebase.inbox.repository import Named
from homebase.kit.errors import ApiError, ComplianceBlocked, NotFound
from homebase.kit.pagination import decode_cursor, encode_cursor, list_key
from homebase.messaging import service as messaging
from homebase.messaging.records import MessageRecord
from homebase.models import User
from homebase.runtime import get_runtime

router = APIRouter(include_in_schema=False)
PATH = "/console/inbox"
CHANNELS = {"sms": "SMS", "whatsapp": "WhatsApp", "email": "Email"}
PREVIEW = 140  # characters of a conversation's latest message shown in the list
# Why the AI is paused, as the thread says it (contacts.schemas.ContactAiPauseReason).
PAUSES = {
    "note": "a note was added",
    "human_message": "a person sent a message",
    "handoff": "the AI handed the conversation over",
    "daily_limit": "the AI reached its daily limit",
    "manual": "paused by hand",
    "opt_out": "the contact opted out",
}
users = User.__table__


def display_name(contact: Named) -> str:
    """How a page names a contact: its name, else its email, else its phone."""
    if contact["anonymized_at"] is not None:
        return "Erased contact"
    name = " ".join(part for part in (contact["first_name"], contact["last_name"]) if part)
    return name or contact["email"] or contact["phone"] or contact["id"]


def _position(raw: str | None) -> tuple[int, str] | None:
    """A cursor's (unread, latest message id), or None to start at the top."""
    unread, _, latest = (raw or "").partition(":")
    return (int(unread), latest) if unread in ("0", "1") and latest else None


@router.get(PATH)
async def inbox_page(request: Request) -> Response:
    member = await signed_in(request)
    keys = get_runtime(request).settings.keys
    key = list_key(member.workspace_id, PATH, {"member": member.user_id})
    after = _position(decode_cursor(keys, key, request.query_params.get("cursor")))
    async with member_session(request, member) as session:
        rows = await repository.conversations(session, member.user_id, after=after, size=PAGE_SIZE)
        older = None
        if len(rows) > PAGE_SIZE:
            rows = rows[:PAGE_SIZE]
            last = rows[-1]
            cursor = encode_cursor(keys, key, f"{last['unread']}:{last['latest_id']}")
            older = f"{PATH}?{_query(cursor)}"
        latest = await repository.messages_by_id(session, [row["latest_id"] for row in rows])
    conversations = [
        {
            "contact_id": row["id"],
            "name": display_name(row),
            "phone": row["phone_e164"] or row["phone"],
            "email": row["email"],
            "unread": bool(row["unread"]),
            "ai_paused": row["ai_paused_at"] is not None,
            "latest": latest[row["latest_id"]],
            "preview": _preview(latest[row["latest_id"]]),
        }
        for row in rows
    ]
    return member_page(
        request, member, "console/inbox.html", conversations=conversations, older=older
    )


def _query(cursor: str) -> str:
    return urlencode({"cursor": cursor})


def _preview(message: MessageRecord) -> str:
    text = " ".join((message["body"] or message["subject"] or "").split())
    return text if len(text) <= PREVIEW else text[: PREVIEW - 1] + "…"


async def _contact(session: TenantSession, contact_id: str) -> ContactRecord:
    try:
        return await contacts.get_or_404(session, contact_id)
    except NotFound:
        raise ConsolePageError(404, "Not found", "No such conversation.") from None


async def _thread_page(
    request: Request,
    member: Member,
    contact_id: str,
    *,
    status: int = 200,
    notice: str | None = None,
    errors: list[str] | None = None,
    refusal: str | None = None,
    values: dict[str, str] | None = None,
) -> Response:
    """The thread; its first page marks the conversation read for the member (not an
    erased contact's: the erasure removed its marks, and its thread left the inbox)."""
    async with member_session(request, member) as session:
        contact = await _contact(session, contact_id)
        rows, older = await keyset_page(
            request,
            session,
            lambda after_id, size: repository.thread(session, contact_id, after_id, size),
        )
        actors = {row["actor"] for row in rows if (row["actor"] or "").startswith("usr_")}
        names = await _member_names(session, actors)
        mark = await repository.read_mark(session, member.user_id, contact_id)
    first_page = "cursor" not in request.query_params
    erased = contact["anonymized_at"] is not None
    if (
        first_page
        and rows
        and not erased
        and (mark is None or mark["read_through_id"] < rows[0]["id"])
    ):
        async with member_session(request, member, write=True) as session:
            await repository.mark_read(session, member.user_id, contact_id, through=rows[0]["id"])
    channels = _reply_channels(contact)
    chosen = values or {"channel": _default_channel(rows, channels), "subject": "", "body": ""}
    return member_page(
        request,
        member,
        "console/inbox_thread.html",
        status,
        contact=contact,
        name=display_name(contact),
        messages=rows,
        senders=names,
        older=older,
        channels=channels,
        values=chosen,
        notice=notice,
        errors=errors or [],
        refusal=refusal,
        erased=erased,
        paused=PAUSES.get(contact["ai_paused_reason"] or "", contact["ai_paused_reason"]),
    )


async def _member_names(session: TenantSession, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    rows = await session.fetch_all(
        session.select(users, users.c.id, users.c.name).where(users.c.id.in_(sorted(ids)))
    )
    return {row["id"]: row["name"] for row in rows}


def _reply_channels(contact: ContactRecord) -> dict[str, str]:
    """The channels the contact can be reached on: texts need a phone, email an email."""
    shown = {}
    if contact["phone_e164"]:
        shown["sms"], shown["whatsapp"] = CHANNELS["sms"], CHANNELS["whatsapp"]
    if contact["email_lower"]:
        shown["email"] = CHANNELS["email"]
    return shown


def _default_channel(rows: Sequence[Mapping[str, Any]], channels: dict[str, str]) -> str:
    """The channel of the newest message the contact sent, else the first offered."""
    for row in rows:
        if row["direction"] == "INBOUND" and row["channel"].lower() in channels:
            return str(row["channel"]).lower()
    return next(iter(channels), "sms")


NOTICES = {
    "sent": "Your reply is queued; it goes out in a moment. The AI is paused on this "
    "conversation until someone hands it back.",
    "resumed": "The AI answers this contact's texts again.",
}


@router.get(PATH + "/{contact_id}")
async def thread_page(request: Request, contact_id: str, done: str | None = None) -> Response:
    member = await signed_in(request)
    return await _thread_page(request, member, contact_id, notice=NOTICES.get(done or ""))


@router.post(PATH + "/{contact_id}/reply")
async def reply(request: Request, contact_id: str) -> Response:
    """The member's reply: POST /v1/messages's path, addressed to the contact by its id."""
    member = await signed_in(request)
    form = await posted_form(request, member)
    values = {name: field(form, name) for name in ("channel", "subject", "body")}
    values["body"] = _raw(form, "body")
    body = {
        "channel": values["channel"],
        "contact_id": contact_id,
        "body": values["body"],
    }
    if values["channel"] == "email":
        body["subject"] = values["subject"]
    email_from = get_runtime(request).settings.email_from
    refusal = None
    try:
        async with member_session(request, member, write=True) as session:
            await _contact(session, contact_id)
            await contacts.writable(session, contact_id)
            send = messaging.request_from(body)
            try:
                await messaging.send_by_person(session, send, email_from=email_from)
            except ComplianceBlocked as blocked:
                # Its record (the FAILED message, the timeline) commits, as the API's does.
                refusal = blocked.message
    except ApiError as refused:
        items = (refused.details or {}).get("errors", [])
        errors = [f"{item['field']}: {item['message']}" for item in items] or [refused.message]
        return await _thread_page(
            request, member, contact_id, status=refused.status, errors=errors, values=values
        )
    if refusal is not None:
        return await _thread_page(
            request, member, contact_id, status=422, refusal=refusal, values=values
        )
    return see_other(f"{PATH}/{contact_id}?done=sent")


def _raw(form: FormData, name: str) -> str:
    """A message body as typed (its spaces and lines are the member's)."""
    value = form.get(name)
    return value if isinstance(value, str) else ""


@router.post(PATH + "/{contact_id}/ai/resume")
async def hand_back_to_ai(request: Request, contact_id: str) -> Response:
    """POST /v1/contacts/{id}/ai/resume's service: the AI answers the contact again."""
    member = await signed_in(request)
    await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            await _contact(session, contact_id)
            await contacts.switch_ai(session, contact_id, reason=None)
    except ApiError as refused:
        return await _thread_page(
            request, member, contact_id, status=refused.status, errors=[refused.message]
        )
    return see_other(f"{PATH}/{contact_id}?done=resumed")
