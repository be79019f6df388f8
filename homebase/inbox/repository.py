"""The inbox's reads: conversations (one per contact that has a message) newest first,
unread first for the member asking, a keyset page at a time; a conversation's messages;
and the member's read marks.

A conversation's latest message is its highest message id (ids are time-ordered, the
order GET /v1/messages lists by). The page is one statement: the latest id of each
contact, an index-only walk of `ix_messages_contact` (workspace_id, contact_id, id),
joined to the contact and to the member's mark in `conversation_reads` (its primary key),
ordered by (unread, latest id) descending, resumed after the previous page's last pair."""

from datetime import datetime
from typing import cast

from sqlalchemy import and_, case, func, or_
from typing_extensions import TypedDict

from homebase.db.tenancy import TenantSession
from homebase.kit.statements import AnySelect
from homebase.messaging.records import MessageRecord
from homebase.models import Contact, ConversationRead, Message

messages = Message.__table__
contacts = Contact.__table__
reads = ConversationRead.__table__


class Named(TypedDict):
    """What a page needs of a contact to name it (a ContactRecord is one)."""

    id: str
    first_name: str | None
    last_name: str | None
    email: str | None
    phone: str | None
    anonymized_at: datetime | None


class ConversationRow(Named):
    """A row of the inbox's page: the contact's CONTACT_COLUMNS, its latest message's id
    and whether the member has not read up to it (1) or has (0)."""

    phone_e164: str | None
    ai_paused_at: datetime | None
    ai_paused_reason: str | None
    latest_id: str
    unread: int


class ReadMark(TypedDict):
    member_id: str
    contact_id: str
    read_through_id: str
    read_at: datetime


CONTACT_COLUMNS = (
    "id",
    "first_name",
    "last_name",
    "email",
    "phone",
    "phone_e164",
    "ai_paused_at",
    "ai_paused_reason",
    "anonymized_at",
)


async def conversations(
    session: TenantSession, member_id: str, *, after: tuple[int, str] | None, size: int
) -> list[ConversationRow]:
    """One page (size + 1 rows, the extra one says there is more) of the member's inbox:
    each row the contact's columns, `latest_id` and `unread` (1 or 0)."""
    statement = conversations_statement(session, member_id, after=after, size=size)
    return cast(list[ConversationRow], await session.fetch_all(statement))


def conversations_statement(
    session: TenantSession, member_id: str, *, after: tuple[int, str] | None, size: int
) -> AnySelect:
    """The statement of `conversations`."""
    latest = (
        session.select(messages, messages.c.contact_id, func.max(messages.c.id).label("latest_id"))
        .where(messages.c.contact_id.is_not(None))
        .group_by(messages.c.contact_id)
        .subquery("latest")
    )
    unread = case(
        (
            or_(reads.c.read_through_id.is_(None), latest.c.latest_id > reads.c.read_through_id),
            1,
        ),
        else_=0,
    )
    joined = latest.join(contacts, contacts.c.id == latest.c.contact_id).outerjoin(
        reads,
        and_(
            reads.c.workspace_id == session.workspace_id,
            reads.c.member_id == member_id,
            reads.c.contact_id == latest.c.contact_id,
        ),
    )
    statement = (
        session.select(
            contacts,
            *(contacts.c[name] for name in CONTACT_COLUMNS),
            latest.c.latest_id,
            unread.label("unread"),
        )
        .select_from(joined)
        .where(contacts.c.anonymized_at.is_(None))  # an erased contact's is gone
        .order_by(unread.desc(), latest.c.latest_id.desc())
        .limit(size + 1)
    )
    if after is not None:
        was_unread, latest_id = after
        statement = statement.where(
            or_(unread < was_unread, and_(unread == was_unread, latest.c.latest_id < latest_id))
        )
    return statement


async def messages_by_id(session: TenantSession, ids: list[str]) -> dict[str, MessageRecord]:
    if not ids:
        return {}
    rows = await session.fetch_all(session.select(messages).where(messages.c.id.in_(ids)))
    return {row["id"]: cast(MessageRecord, row) for row in rows}


def thread(session: TenantSession, contact_id: str, after_id: str | None, size: int) -> AnySelect:
    """A page of the contact's messages, newest first (`ix_messages_contact`)."""
    statement = (
        session.select(messages)
        .where(messages.c.contact_id == contact_id)
        .order_by(messages.c.id.desc())
        .limit(size + 1)
    )
    if after_id is not None:
        statement = statement.where(messages.c.id < after_id)
    return statement


async def newest_message_id(session: TenantSession, contact_id: str) -> str | None:
    row = await session.fetch_one(
        session.select(messages, messages.c.id)
        .where(messages.c.contact_id == contact_id)
        .order_by(messages.c.id.desc())
        .limit(1)
    )
    return row["id"] if row else None


async def mark_read(
    session: TenantSession, member_id: str, contact_id: str, *, through: str
) -> None:
    """The member has seen the conversation up to message `through`; a mark never moves
    back (two tabs opened in turn)."""
    now = session.now()
    await session.upsert(
        reads,
        {
            "member_id": member_id,
            "contact_id": contact_id,
            "read_through_id": through,
            "read_at": now,
        },
        conflict=("member_id", "contact_id"),
        set_={"read_through_id": through, "read_at": now},
        where=reads.c.read_through_id < through,
    )


async def read_mark(session: TenantSession, member_id: str, contact_id: str) -> ReadMark | None:
    row = await session.fetch_one(
        session.select(reads).where(
            reads.c.member_id == member_id, reads.c.contact_id == contact_id
        )
    )
    return cast("ReadMark | None", row)


async def delete_for_contact(session: TenantSession, contact_id: str) -> int:
    return await session.execute(session.delete(reads).where(reads.c.contact_id == contact_id))
