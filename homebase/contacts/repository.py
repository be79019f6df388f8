"""Contact and timeline queries. Every statement starts from the TenantSession."""

from collections.abc import Callable, Collection
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    String,
    bindparam,
    column,
    exists,
    literal_column,
    null,
    select,
    table,
    type_coerce,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.sql import ColumnElement

from homebase.contacts import render, search
from homebase.contacts.records import (
    ContactChanges,
    ContactPageRow,
    ContactRecord,
    TimelineRecord,
)
from homebase.contacts.schemas import ContactFilters
from homebase.custom_fields.repository import custom_filtered, custom_held, custom_params
from homebase.db.tenancy import TenantSession, tenant_update
from homebase.db.types import UTCDateTime, stored, wire_time
from homebase.kit.pagination import keyset_params, keyset_template
from homebase.kit.phones import DEFAULT_REGION
from homebase.kit.statements import AnySelect
from homebase.models import Contact, TimelineEvent
from homebase.paging import changes
from homebase.paging.listing import Listing
from homebase.paging.pages import Step

contacts = Contact.__table__
timeline = TimelineEvent.__table__
_NO_FILTERS = ContactFilters()


async def get(session: TenantSession, contact_id: str) -> ContactRecord | None:
    row = await session.fetch_one(session.select(contacts).where(contacts.c.id == contact_id))
    return cast("ContactRecord | None", row)


# SQLite's tag index (migration 0017): one row per (workspace, tag, contact), written by
# triggers on contacts from its JSON `tags`, so every write path keeps it in step.
# PostgreSQL answers `tags @> '["x"]'` from its GIN index (migration 0016) instead.
contact_tags = table(
    "contact_tags",
    column("workspace_id", String),
    column("tag", String),
    column("contact_id", String),
)
FILTERS = ("stage", "source", "owner_id", "tag")


def has_tag(session: TenantSession) -> ColumnElement[bool]:
    if session.dialect == "postgresql":  # `tags @> '["x"]'`, which the GIN index answers
        # A jsonb parameter: jsonb_build_array(:tag) applied as well, but the recheck ran
        # it on every row the index named (docs/performance.md, "Search and lists at
        # 1,000,000 contacts").
        return type_coerce(contacts.c.tags, JSONB).contains(
            bindparam("filter_tag_json", type_=JSONB)
        )
    return exists(
        select(literal_column("1"))
        .select_from(contact_tags)
        .where(
            contact_tags.c.workspace_id == contacts.c.workspace_id,
            contact_tags.c.tag == bindparam("filter_tag", type_=String),
            contact_tags.c.contact_id == contacts.c.id,
        )
    )


# What a list page renders (contacts/render.py), by the wire's names and in its order,
# not workspace_id nor the lookup column email_lower: SQLite turns every column read into
# a Python object. Its timestamps (the table's UTCDateTime columns) come as the wire's
# text where the database writes it (db/types.wire_time), else as stored; so do its JSON
# columns (tags, custom values) on SQLite; what the credential decides is a null the
# render sets (render.list_item).
_COLUMN_OF = {
    "ai_auto_response_paused_at": "ai_paused_at",
    "ai_auto_response_paused_reason": "ai_paused_reason",
}
_SET_BY_RENDER = ("pii_masked", "ai_auto_response_paused")


def _page_column(name: str, dialect: str) -> ColumnElement[Any]:
    if name in _SET_BY_RENDER:
        return null().label(name)
    column = contacts.c[_COLUMN_OF.get(name, name)]
    if isinstance(column.type, UTCDateTime):
        return wire_time(column, dialect).label(name)
    if isinstance(column.type, JSON) and dialect == "sqlite":
        return stored(column)
    return column.label(name)


_PAGE_COLUMNS = {
    dialect: tuple(_page_column(name, dialect) for name in render.PAGE_COLUMNS)
    for dialect in ("sqlite", "postgresql")
}


def page_columns(session: TenantSession) -> tuple[ColumnElement[Any], ...]:
    return _PAGE_COLUMNS[session.dialect]


# Statements built once per workspace and shape, run with bindparams: building and
# cache-keying a statement per request cost more than running it (docs/performance.md).
_KEPT: dict[tuple[object, ...], AnySelect] = {}


def _kept(
    session: TenantSession, shape: tuple[object, ...], build: Callable[[], AnySelect]
) -> AnySelect:
    """The statement `build` makes, kept per workspace and shape, so that its cache key
    is memoized and SQLAlchemy finds it compiled."""
    key = (session.workspace_id, session.dialect, *shape)
    kept = _KEPT.get(key)
    if kept is None:
        if len(_KEPT) >= 4096:
            _KEPT.clear()
        kept = _KEPT[key] = build()
    return kept


def _unfiltered(session: TenantSession, after: bool) -> AnySelect:
    """The unfiltered page (kit.pagination), built once."""
    return _kept(
        session,
        ("unfiltered", after),
        lambda: keyset_template(
            session.select(contacts, *page_columns(session)), contacts.c.id, after=after
        ),
    )


def _filtered(session: TenantSession, statement: AnySelect, present: tuple[str, ...]) -> AnySelect:
    if "stage" in present:
        statement = statement.where(contacts.c.stage == bindparam("filter_stage", type_=String))
    if "source" in present:
        statement = statement.where(contacts.c.source == bindparam("filter_source", type_=String))
    if "owner_id" in present:
        statement = statement.where(
            contacts.c.owner_id == bindparam("filter_owner_id", type_=String)
        )
    if "tag" in present:
        statement = statement.where(has_tag(session))
    return statement


# bound values, by bindparam name (SQLAlchemy's)
def _filter_params(filters: ContactFilters) -> tuple[tuple[str, ...], dict[str, Any]]:
    values = {name: getattr(filters, name) for name in FILTERS}
    present = tuple(name for name in FILTERS if values[name] is not None)
    # bound values, by bindparam name (SQLAlchemy's)
    found: dict[str, Any] = {f"filter_{name}": values[name] for name in present}
    if filters.stage is not None:
        found["filter_stage"] = filters.stage.value
    if filters.tag is not None:
        found["filter_tag_json"] = [filters.tag]  # PostgreSQL's form (has_tag)
    return present, found


def _by_tag(session: TenantSession, present: tuple[str, ...], after: bool) -> AnySelect:
    """A tag-filtered page on SQLite, walking the tag index (workspace, tag, contact) in
    keyset order and looking each contact up by id; the other filters test each row.
    `workspace_id || ''` (select_unindexed_scope) keeps SQLite from walking contacts' own
    (workspace_id, id) index instead and probing the tag of every contact."""
    statement = (
        session.select_unindexed_scope(contacts, *page_columns(session))
        .select_from(contact_tags.join(contacts, contacts.c.id == contact_tags.c.contact_id))
        .where(
            contact_tags.c.workspace_id == session.workspace_id,
            contact_tags.c.tag == bindparam("filter_tag", type_=String),
        )
    )
    others = tuple(name for name in present if name != "tag")
    return keyset_template(
        _filtered(session, statement, others), contact_tags.c.contact_id, after=after
    )


def list_statement(
    session: TenantSession,
    filters: ContactFilters,
    *,
    pii: bool,
    after_id: str | None,
    limit: int,
    custom: tuple[tuple[str, str], ...] = (),
    region: str = DEFAULT_REGION,
    # bound values, by bindparam name (SQLAlchemy's)
) -> tuple[AnySelect, dict[str, Any]] | list[Step]:
    """The page's statement and its bindparams; for a search through the trigram
    indexes, steps tried in turn (contacts/search.py; http/lists.py runs a later one
    only when an earlier could not answer). `custom`: (field id, value key) of each
    `custom.<key>=` filter (custom_fields.service.filters). `region`: the workspace's
    default_phone_region, how `q` is read as a phone number (search.params)."""
    after = after_id is not None
    if custom:
        return _by_custom(session, filters, pii, after_id, limit, custom, region)
    if filters == _NO_FILTERS:
        return _unfiltered(session, after), keyset_params(after_id, limit)
    present, values = _filter_params(filters)
    q = filters.q
    if q and search.indexed(q):
        shape, found = search.params(q, pii, region)
        values = search.step_params({**values, **found}, after_id, limit)
        return _search_steps(session, present, shape, after, values, search.names_a_number(q))
    if q:  # shorter than a trigram: the workspace is scanned, as before
        shape, found = search.params(q, pii, region)
        statement = _kept(
            session,
            ("short", present, shape, after),
            lambda: keyset_template(
                _filtered(session, session.select(contacts, *page_columns(session)), present).where(
                    search.condition(shape, session.dialect)
                ),
                contacts.c.id,
                after=after,
            ),
        )
        return statement, {**values, **found, **keyset_params(after_id, limit)}
    if "tag" in present and session.dialect == "sqlite":
        return (
            _kept(session, ("tag", present, after), lambda: _by_tag(session, present, after)),
            {**values, **keyset_params(after_id, limit)},
        )
    statement = _kept(
        session,
        ("filtered", present, after),
        lambda: keyset_template(
            _filtered(session, session.select(contacts, *page_columns(session)), present),
            contacts.c.id,
            after=after,
        ),
    )
    return statement, {**values, **keyset_params(after_id, limit)}


def _by_custom(
    session: TenantSession,
    filters: ContactFilters,
    pii: bool,
    after_id: str | None,
    limit: int,
    custom: tuple[tuple[str, str], ...],
    region: str,
    # bound values, by bindparam name (SQLAlchemy's)
) -> tuple[AnySelect, dict[str, Any]]:
    """A page filtered by custom field values, driven by the values' index (workspace,
    field, value, record) in keyset order (custom_fields/repository.custom_filtered);
    each contact is looked up by id and the other filters, a search's included, test it."""
    present, values = _filter_params(filters)
    shape: tuple[bool, bool, bool] | None = None
    if filters.q:
        shape, found = search.params(filters.q, pii, region)
        values = {**values, **found}
    after = after_id is not None

    def build() -> AnySelect:
        statement, key = custom_filtered(session, contacts, page_columns(session), len(custom))
        statement = _filtered(session, statement, present)
        if shape is not None:
            statement = statement.where(search.condition(shape, session.dialect))
        return keyset_template(statement, key, after=after)

    statement = _kept(session, ("custom", len(custom), present, shape, after), build)
    params = custom_params(custom)
    return statement, {**values, **params, **keyset_params(after_id, limit)}


def changes_statement(
    session: TenantSession,
    filters: ContactFilters,
    *,
    pii: bool,
    resuming: bool,
    custom: tuple[tuple[str, str], ...] = (),
    region: str = DEFAULT_REGION,
    # bound values, by bindparam name (SQLAlchemy's)
) -> tuple[AnySelect, dict[str, Any]]:
    """A page of the `updated_after` walk (db/changes.page): the page's
    columns, as the list's, and its filters, tag by `has_tag` on both databases. The
    walk's index gives the order, so each filter, `q` (search.condition, the search's
    own rule) and `custom` values (custom_held) too, is tested row by row along it: no
    other index gives rows in (updated_at, id) order (docs/sync.md, "Cost")."""
    present, values = _filter_params(filters)
    shape = None
    if filters.q:
        shape, found = search.params(filters.q, pii, region)
        values = {**values, **found}

    def build() -> AnySelect:
        statement = _filtered(session, session.select(contacts, *page_columns(session)), present)
        if shape is not None:
            statement = statement.where(search.condition(shape, session.dialect))
        statement = statement.where(*custom_held(contacts, range(len(custom))))
        return changes.statement(statement, contacts, session.dialect, resuming=resuming)

    statement = _kept(session, ("changes", present, shape, resuming, len(custom)), build)
    return statement, {**values, **custom_params(custom)}


def _search_steps(
    session: TenantSession,
    present: tuple[str, ...],
    shape: tuple[bool, bool, bool],
    after: bool,
    # bound values, by bindparam name (SQLAlchemy's)
    values: dict[str, Any],
    number: bool,
) -> list[Step]:
    def among_newest() -> AnySelect:
        return search.window_statement(
            session,
            _filtered(session, session.select(contacts, *page_columns(session)), present),
            shape,
            after,
        )

    def by_index() -> AnySelect:
        return _filtered(
            session, session.select_unindexed_scope(contacts, *page_columns(session)), present
        )

    kind = (present, shape, after)
    steps: list[Step] = [
        (_kept(session, ("window", *kind), among_newest), values),
        (
            _kept(
                session,
                ("indexed", *kind),
                lambda: search.indexed_statement(session, by_index(), shape, after),
            ),
            values,
        ),
    ]
    if number and session.dialect == "postgresql":
        del steps[0]  # (search.names_a_number)
    if session.dialect == "sqlite":
        probe = _kept(session, ("probe",), lambda: search.probe_statement(session))
        page = _kept(
            session,
            ("candidates", *kind),
            lambda: search.candidates_statement(session, by_index(), shape, after),
        )
        steps.insert(0, search.Candidates(session, probe, page, values))
    return steps


def listing(
    session: TenantSession,
    filters: ContactFilters,
    *,
    pii: bool,
    custom: tuple[tuple[str, str], ...] = (),
    region: str = DEFAULT_REGION,
) -> Listing[ContactPageRow]:
    """GET /v1/contacts: newest first (list_statement's steps), and its `updated_after`
    walk (changes_statement), both reading the page's columns (page_columns)."""
    return Listing(
        lambda after_id, limit: list_statement(
            session,
            filters,
            pii=pii,
            after_id=after_id,
            limit=limit,
            custom=custom,
            region=region,
        ),
        lambda resuming: changes_statement(
            session, filters, pii=pii, resuming=resuming, custom=custom, region=region
        ),
    )


async def names_of(session: TenantSession, contact_ids: Collection[str]) -> dict[str, str]:
    """Each of `contact_ids` of this workspace by its name (first and last, else its
    email, else ""): one query, for a page that lists other things about contacts."""
    if not contact_ids:
        return {}
    rows = await session.fetch_all(
        session.select(
            contacts, contacts.c.id, contacts.c.first_name, contacts.c.last_name, contacts.c.email
        ).where(contacts.c.id.in_(sorted(contact_ids)))
    )
    named = {}
    for row in rows:
        name = " ".join(part for part in (row["first_name"], row["last_name"]) if part)
        named[row["id"]] = name or row["email"] or ""
    return named


async def owned_by(session: TenantSession, owner_id: str) -> list[str]:
    """The ids of the contacts `owner_id` owns, erased ones aside (nothing is written into
    an erased contact)."""
    rows = await session.fetch_all(
        session.select(contacts, contacts.c.id)
        .where(contacts.c.owner_id == owner_id, contacts.c.anonymized_at.is_(None))
        .order_by(contacts.c.id)
    )
    return [row["id"] for row in rows]


async def update(session: TenantSession, contact_id: str, values: ContactChanges) -> None:
    await session.execute(
        session.update(contacts).where(contacts.c.id == contact_id).values(**values)
    )


async def switch_ai_pause(
    session: TenantSession, contact_id: str, values: ContactChanges, *, pausing: bool
) -> bool:
    """Writes the pause (or its end) only if the contact is not already in that state:
    of two at the same moment, one changes the row (True) and the other nothing."""
    was = contacts.c.ai_paused_at.is_(None) if pausing else contacts.c.ai_paused_at.is_not(None)
    statement = session.update(contacts).where(contacts.c.id == contact_id, was)
    return bool(await session.execute(statement.values(**values)))


_SET_OWNER = (
    tenant_update(contacts)
    .where(contacts.c.id == bindparam("contact"))
    .values(
        owner_id=bindparam("new_owner_id"),
        updated_at=bindparam("now", type_=contacts.c.updated_at.type),
    )
)


async def set_owner(session: TenantSession, contact_id: str, owner_id: str, now: datetime) -> None:
    """Routing hands a contact to a lead's assignee, once per routed lead."""
    await session.execute(_SET_OWNER, {"contact": contact_id, "new_owner_id": owner_id, "now": now})


async def add_timeline_event(session: TenantSession, values: TimelineRecord) -> None:
    await session.insert(timeline, values)


def timeline_listing(
    session: TenantSession, contact_id: str, event_type: str | None
) -> Listing[TimelineRecord]:
    """GET /v1/contacts/{id}/events (and .../notes: `event_type` note), newest first."""
    statement = session.select(timeline).where(timeline.c.contact_id == contact_id)
    if event_type is not None:
        statement = statement.where(timeline.c.type == event_type)
    return Listing.newest(statement, timeline)


async def scrub_timeline(session: TenantSession, contact_id: str, placeholder: str) -> None:
    await session.execute(
        session.update(timeline)
        .where(timeline.c.contact_id == contact_id)
        .values(title=placeholder, body=None, data={})
    )
