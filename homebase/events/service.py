"""What a credential may read of the events, and where a walk starts and stops.

- Types: the catalogue's scope column (outbox/catalogue.py), against the credential's
  scopes with their implications. A `type` filter naming a type the credential may not
  read is refused (403 insufficient_scope naming the scope), as any other operation
  answers a missing scope, rather than silently narrowed to nothing.
- Window: events stored and within HOMEBASE_RETENTION_EVENTS_DAYS (retention/ prunes only
  dispatched events older than that, so nothing inside the window is ever pruned; an
  older event still stored because a delivery is pending is outside it all the same),
  and at or before the settle horizon (db/settle.py), so a late commit never lands
  behind a position already served.
"""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.config import Settings
from homebase.db import settle
from homebase.db.tenancy import TenantSession
from homebase.events import render, repository
from homebase.events.repository import Position
from homebase.events.schemas import TYPE_PATTERN, EventFilters
from homebase.kit import pagination
from homebase.kit.errors import InsufficientScope, NotFound, ValidationFailed
from homebase.kit.pagination import PageRequest
from homebase.outbox.catalogue import EVENT_SCOPES, EVENT_TYPES

SHOWN_UNKNOWN = 5  # positions of unknown names the 400 gives
EVENTS = frozenset(EVENT_TYPES)


def readable(principal: Principal) -> tuple[str, ...]:
    """The catalogue types the credential's scopes read, in catalogue order."""
    return tuple(name for name in EVENT_TYPES if principal.has(EVENT_SCOPES[name].value))


def pii(principal: Principal) -> bool:
    return principal.has(Scope.contacts_read_pii.value)


_TYPE_VALUE = re.compile(TYPE_PATTERN)


def requested_types(values: list[str] | None) -> tuple[str, ...] | None:
    """The names of the `type` parameters (repeated, comma-separated, or both), in
    catalogue order; None when there is none. 400 naming `type` for a value the document's
    pattern refuses: a name that is not a catalogue event name, or none between commas."""
    if values is None:
        return None
    listed = [piece.strip() for value in values for piece in value.split(",")]
    names = set(listed)
    # Named by position, never repeated: an error repeats no submitted value.
    unknown = [str(at) for at, name in enumerate(listed, start=1) if name and name not in EVENTS]
    if unknown:
        shown = ", ".join(unknown[:SHOWN_UNKNOWN])
        which = (
            f"name {shown} is not an event type"
            if len(unknown) == 1
            else f"names {shown} are not event types"
        )
        raise ValidationFailed.for_field(
            "type",
            f"{which} of the catalogue (see the webhooks section of the API document)",
            location="query",
        )
    if not all(_TYPE_VALUE.fullmatch(value) for value in values):
        raise ValidationFailed.for_field(
            "type", "must be event type names separated by commas", location="query"
        )
    return tuple(name for name in EVENT_TYPES if name in names)


def visible_types(
    principal: Principal, requested: tuple[str, ...] | None
) -> tuple[str, ...] | None:
    """The types a page reads: None for every type (the credential reads them all and no
    filter narrows them). A requested type the credential may not read: 403."""
    allowed = readable(principal)
    if requested is None:
        return None if len(allowed) == len(EVENT_TYPES) else allowed
    for name in requested:
        if name not in allowed:
            raise InsufficientScope(EVENT_SCOPES[name].value)
    return requested


def cutoff(settings: Settings, now: datetime) -> datetime:
    """Events at or before this moment are outside the retention period: not served."""
    return now - timedelta(days=settings.retention_events_days)


def horizon(settings: Settings, now: datetime) -> datetime:
    return settle.horizon(now, settings.sync_settle_seconds)


@dataclass(frozen=True, slots=True)
class Walk:
    types: tuple[str, ...] | None  # None: every type
    start: Position  # exclusive
    horizon: datetime


def latest(*positions: Position | None) -> Position:
    """The bound that excludes the most (positions are lower bounds; the first is set)."""
    chosen: Position | None = None
    for position in positions:
        if position is not None and (chosen is None or position.at_or_past(chosen)):
            chosen = position
    assert chosen is not None
    return chosen


async def after_position(session: TenantSession, event_id: str, *, oldest: datetime) -> Position:
    """The position of `after`: any stored event of this workspace within the retention
    period (one a webhook delivered too, whatever its type). 400 naming `after` else."""
    row = await repository.position_of(session, event_id)
    if row is None or row["occurred_at"] <= oldest:
        raise ValidationFailed.for_field(
            "after",
            "is not an event of this workspace within the retention period: it is unknown, "
            "or older than the period and pruned, so events after it may be gone. Start "
            "again without `after` (or with `occurred_after`).",
            location="query",
        )
    return Position(row["occurred_at"], row["id"])


async def walk(
    session: TenantSession,
    principal: Principal,
    *,
    settings: Settings,
    filters: EventFilters,
    cursor: Position | None,
) -> Walk:
    """Where the page starts (the later of the retention cutoff and the cursor's
    position; without a cursor, the latest of the cutoff, occurred_after and after) and
    what it reads. 400s first (type, after), then 403."""
    now = session.now()
    oldest = cutoff(settings, now)
    errors: list[ValidationFailed] = []
    requested: tuple[str, ...] | None = None
    try:
        requested = requested_types(filters.type)
    except ValidationFailed as failure:
        errors.append(failure)
    after: Position | None = None
    # `after` and `occurred_after` only say where a walk starts; a cursor of the walk holds
    # a position past them, so it wins: the event need not be found again (nor be refused
    # if it was pruned since), and a client following next_cursor need not repeat them.
    if filters.after is not None and cursor is None:
        try:
            after = await after_position(session, filters.after, oldest=oldest)
        except ValidationFailed as failure:
            errors.append(failure)
    if errors:
        raise _joined(errors)
    types = visible_types(principal, requested)
    if cursor is not None:
        return Walk(types, latest(Position(oldest), cursor), horizon(settings, now))
    since = Position(filters.occurred_after) if filters.occurred_after is not None else None
    return Walk(types, latest(Position(oldest), since, after), horizon(settings, now))


def _joined(errors: list[ValidationFailed]) -> ValidationFailed:
    if len(errors) == 1:
        return errors[0]
    items: list[dict[str, Any]] = [
        item for error in errors for item in (error.details or {}).get("errors", [])
    ]
    return ValidationFailed.for_fields(
        [(item["field"], item["message"]) for item in items], location="query"
    )


async def page(session: TenantSession, walk: Walk, *, limit: int) -> list[dict[str, Any]]:
    """Up to `limit` + 1 events of the walk, in order (the last says whether there is
    more)."""
    if walk.types == ():
        return []  # the credential reads no event type
    return await repository.page(session, walk.types, walk.start, walk.horizon, limit + 1)


async def get_or_404(
    session: TenantSession, principal: Principal, *, settings: Settings, event_id: str
) -> dict[str, Any]:
    """One event by id: 404 when it is not this workspace's or is outside the retention
    period; 403 naming the scope when the credential may not read its type. Not held
    back by the settle horizon: that only orders walks."""
    row = await repository.get(session, event_id)
    scope = EVENT_SCOPES.get(row["type"]) if row is not None else None
    if row is None or scope is None or row["occurred_at"] <= cutoff(settings, session.now()):
        raise NotFound("No such event.")
    if not principal.has(scope.value):
        raise InsufficientScope(scope.value)
    return row


def parse_position(text: str | None) -> Position | None:
    """A cursor's position (render.position), or None to start over: the text is signed,
    so anything else is an older format."""
    if not text:
        return None
    moment, separator, event_id = text.partition(render.SEPARATOR)
    try:
        occurred_at = datetime.fromisoformat(moment)
    except ValueError:
        return None
    if not separator or not event_id or occurred_at.tzinfo is None:
        return None
    return Position(occurred_at, event_id)


def list_key(workspace_id: str, path: str, *, filters: EventFilters) -> str:
    """The walk a cursor belongs to: the workspace, the path, and the filters that change
    what is listed (`type`, its names as a set). Not the start parameters (`after`,
    `occurred_after`): the cursor's position is past them and wins over them (`walk`)."""
    types = None
    if filters.type is not None:
        names = {piece.strip() for value in filters.type for piece in value.split(",")}
        types = ",".join(sorted(names))
    return pagination.list_key(workspace_id, path, {"type": types})


async def list_page(
    session: TenantSession,
    principal: Principal,
    *,
    settings: Settings,
    filters: EventFilters,
    request: PageRequest,
    path: str,
) -> dict[str, Any]:
    """GET /v1/events's body. The cursor carries the last event's exact position
    (render.position), since events are ordered by time first, not by id alone."""
    keys = settings.keys
    key = list_key(session.workspace_id, path, filters=filters)
    cursor = parse_position(pagination.decode_cursor(keys, key, request.cursor))
    steps = await walk(session, principal, settings=settings, filters=filters, cursor=cursor)
    rows = await page(session, steps, limit=request.limit)
    has_more = len(rows) > request.limit
    rows = rows[: request.limit]
    show = render.renderer(pii=pii(principal))
    return {
        "data": [show(row) for row in rows],
        "next_cursor": pagination.encode_cursor(keys, key, render.position(rows[-1]))
        if has_more
        else None,
        "has_more": has_more,
    }
