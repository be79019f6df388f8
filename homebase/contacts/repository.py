"""Contact and timeline queries. Every statement starts from the TenantSession."""

from typing import Any

from sqlalchemy import bindparam, exists, func, literal_column, select, type_coerce
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.sql import ColumnElement, Select

from homebase.contacts import render, search
from homebase.contacts.schemas import ContactFilters
from homebase.db import direct
from homebase.db.tenancy import TenantSession, tenant_update
from homebase.kit.pagination import keyset, keyset_params, keyset_template
from homebase.models import Contact, TimelineEvent

contacts = Contact.__table__
timeline = TimelineEvent.__table__
_NO_FILTERS = ContactFilters()


async def get(session: TenantSession, contact_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(contacts).where(contacts.c.id == contact_id))


def _has_tag(session: TenantSession, tag: str) -> ColumnElement[bool]:
    if session.dialect == "postgresql":
        return type_coerce(contacts.c.tags, JSONB).contains([tag])
    values = func.json_each(contacts.c.tags).table_valued("value")
    return exists(select(literal_column("1")).select_from(values).where(values.c.value == tag))


# What a list page renders (contacts/render.py), not workspace_id nor the lookup columns
# email_lower and phone_e164: SQLite turns every column read into a Python object.
PAGE_COLUMNS = tuple(contacts.c[name] for name in render.PAGE_COLUMNS)

_UNFILTERED: dict[tuple[str, bool], Select] = {}  # (workspace, has cursor) -> statement


def _unfiltered(session: TenantSession, after: bool) -> Select:
    """The unfiltered page, built once per workspace and shape (kit.pagination)."""
    key = (session.workspace_id, after)
    statement = _UNFILTERED.get(key)
    if statement is None:
        if len(_UNFILTERED) >= 4096:
            _UNFILTERED.clear()
        statement = _UNFILTERED[key] = direct.once(keyset_template(
            session.select(contacts, *PAGE_COLUMNS), contacts.c.id, after=after))
    return statement


def _filtered(session: TenantSession, statement: Select, filters: ContactFilters) -> Select:
    if filters.stage is not None:
        statement = statement.where(contacts.c.stage == filters.stage.value)
    if filters.source is not None:
        statement = statement.where(contacts.c.source == filters.source)
    if filters.owner_id is not None:
        statement = statement.where(contacts.c.owner_id == filters.owner_id)
    if filters.tag is not None:
        statement = statement.where(_has_tag(session, filters.tag))
    return statement


def list_statement(session: TenantSession, filters: ContactFilters, *, pii: bool,
                   after_id: str | None, limit: int) -> Select | tuple[Select, dict] | list:
    """The page's statement; for a search through the trigram indexes, two statements
    tried in turn (contacts/search.py; http/lists.py runs the second only when the first
    finds less than a full page)."""
    if filters == _NO_FILTERS:
        return _unfiltered(session, after_id is not None), keyset_params(after_id, limit)
    q = filters.q
    if q and search.indexed(q):
        among_newest = _filtered(session, session.select(contacts, *PAGE_COLUMNS), filters)
        by_index = _filtered(session, session.select_via_other_index(contacts, *PAGE_COLUMNS),
                             filters)
        return [search.window_statement(session, among_newest.where(search.condition(q, pii)),
                                        after_id, limit),
                search.indexed_statement(session, by_index, q, pii, after_id, limit)]
    statement = _filtered(session, session.select(contacts, *PAGE_COLUMNS), filters)
    if q:  # shorter than a trigram: the workspace is scanned, as before
        statement = statement.where(search.condition(q, pii))
    return keyset(statement, contacts.c.id, after_id, limit)


async def insert(session: TenantSession, values: dict[str, Any]) -> None:
    await session.insert(contacts, values)


async def update(session: TenantSession, contact_id: str, values: dict[str, Any]) -> None:
    await session.execute(session.update(contacts).where(contacts.c.id == contact_id)
                          .values(**values))


_SET_OWNER = (tenant_update(contacts).where(contacts.c.id == bindparam("contact"))
              .values(owner_id=bindparam("new_owner_id"),
                      updated_at=bindparam("now", type_=contacts.c.updated_at.type)))


async def set_owner(session: TenantSession, contact_id: str, owner_id: str, now) -> None:
    """Routing hands a contact to a lead's assignee, once per routed lead."""
    await session.execute(_SET_OWNER, {"contact": contact_id, "new_owner_id": owner_id,
                                       "now": now})


async def add_timeline_event(session: TenantSession, values: dict[str, Any]) -> None:
    await session.insert(timeline, values)


def timeline_statement(session: TenantSession, contact_id: str, *, event_type: str | None,
                       after_id: str | None, limit: int) -> Select:
    statement = session.select(timeline).where(timeline.c.contact_id == contact_id)
    if event_type is not None:
        statement = statement.where(timeline.c.type == event_type)
    return keyset(statement, timeline.c.id, after_id, limit)


async def scrub_timeline(session: TenantSession, contact_id: str, placeholder: str) -> None:
    await session.execute(session.update(timeline).where(timeline.c.contact_id == contact_id)
                          .values(title=placeholder, body=None, data={}))
