"""The lists an export can walk, each as its GET list walks it: the list's filters model
(the request's `filters`, exports/schemas.py, is a subclass of it refusing unknown
members), the same statement builders (the plain list's keyset page, and its
`updated_after` walk), the same render function for the same credential (`render`, the
one the list endpoint calls), and the item model whose members `fields` may name. A new
exportable list is one entry in OBJECTS and one variant of exports/schemas.ExportCreate
(tests/exports/test_export_document.py holds the two alike).

`read` is the one reading of a batch for every list: the plain list newest first by id,
or, with `updated_after`, the list's walk of changes through db/changes.page, the function
the list's own pages read through, at each batch's settle horizon; so the file is the
list walked page by page (tests/exports/test_export_sync.py compares them).

`contact_data` says whether the list's rows can hold a person's details (names,
addresses, message bodies, titles): erasing a contact removes every file of such an
export (exports/service.scrub_contact_exports). Deals are kept as they are by an erasure
(erasure/registry.py KEPT), so a deals export is not touched.
"""

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from homebase.appointments import render as appointments_render
from homebase.appointments import repository as appointments_repository
from homebase.appointments.schemas import Appointment, AppointmentFilters
from homebase.auth.scopes import Scope
from homebase.contacts import render as contacts_render
from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts_service
from homebase.contacts.schemas import Contact, ContactFilters
from homebase.db.tenancy import TenantSession
from homebase.deals import render as deals_render
from homebase.deals import repository as deals_repository
from homebase.deals import service as deals_service
from homebase.deals.schemas import Deal, DealFilters
from homebase.kit import wire
from homebase.kit.phones import DEFAULT_REGION
from homebase.leads import render as leads_render
from homebase.leads import repository as leads_repository
from homebase.leads.schemas import Lead, LeadFilters
from homebase.messaging import render as messages_render
from homebase.messaging import repository as messages_repository
from homebase.messaging.schemas import Message, MessageFilters
from homebase.paging import changes
from homebase.paging.listing import Listing
from homebase.paging.pages import Built, Step, first_answer
from homebase.tasks import render as tasks_render
from homebase.tasks import repository as tasks_repository
from homebase.tasks.schemas import Task, TaskFilters
from homebase.workspaces.lead_policy import phone_region

# A row of whichever list is exported (a real boundary: an export walks every kind of
# list); each list's render takes its own record, and gives its wire type.
Row = dict[str, Any]
Render = Callable[[Any], Mapping[str, Any]]
# (session, filters, pii, after_id, limit, region): the list's keyset page, newest first;
# `region`, the workspace's default_phone_region, is how a `q` is read as a phone number.
Build = Callable[[TenantSession, Any, bool, str | None, int, str], Built | list[Step]]
# (session, filters, pii, resuming, region): the list's `updated_after` walk, as its
# endpoint builds it.
Walk = Callable[[TenantSession, Any, bool, bool, str], Built]
# (session, pii): the list's render function for that credential, made once per export
# (reading what it needs, such as the workspace's custom fields).
MakeRender = Callable[[TenantSession, bool], Awaitable[Render]]
# Where the next batch goes on: the last row's id (the plain list), or its position in
# the walk of changes (db/changes.Position).
After = str | changes.Position


@dataclass(frozen=True)
class Exportable:
    name: str
    scope: Scope  # the list's read scope
    item: type[Any]  # its wire type (kit/wire.py): `fields` names its members, CSV columns follow
    filters: type[BaseModel]  # its filters model
    build: Build
    walk: Walk
    render: MakeRender
    contact_data: bool

    @property
    def columns(self) -> tuple[str, ...]:
        return wire.members(self.item)


async def read(
    item: Exportable,
    session: TenantSession,
    filters: Any,
    pii: bool,
    after: After | None,
    limit: int,
    horizon: datetime,
) -> tuple[list[Row], After | None]:
    """Up to `limit` + 1 rows of the list after `after`, in the list's order, and where
    the batch after these `limit` goes on. `horizon`: the settle horizon of this batch
    (db/settle.py), as a list page takes its own at its request."""
    # A search reads a number as the list endpoint does (contacts/endpoints.py).
    region = await phone_region(session) if getattr(filters, "q", None) else DEFAULT_REGION
    if filters.updated_after is None:
        at = after if isinstance(after, str) else None
        built = item.build(session, filters, pii, at, limit, region)
        rows = await first_answer(session, built if isinstance(built, list) else [built], limit)
        return rows, rows[min(len(rows), limit) - 1]["id"] if rows else None
    rows = await changes.page(
        session,
        lambda resuming: item.walk(session, filters, pii, resuming, region),
        updated_after=filters.updated_after,
        after=after if isinstance(after, tuple) else None,
        horizon=horizon,
        limit=limit,
    )
    last = rows[min(len(rows), limit) - 1] if rows else None
    at_last = changes.position(session.dialect, last) if last is not None else None
    return [changes.without_stamp(row) for row in rows], at_last


def _listed(of: Callable[[TenantSession, Any], Listing[Any]]) -> Build:
    """The keyset page of a list its repository describes as a Listing (paging/listing.py)."""

    def build(
        session: TenantSession, filters: Any, pii: bool, after_id: str | None, limit: int, _: str
    ) -> Built | list[Step]:
        return of(session, filters).page(after_id, limit)

    return build


def _listed_walk(of: Callable[[TenantSession, Any], Listing[Any]]) -> Walk:
    def walk(session: TenantSession, filters: Any, pii: bool, resuming: bool, _: str) -> Built:
        listing = of(session, filters)
        assert listing.walk is not None  # every exportable list is synced
        return listing.walk(resuming)

    return walk


def _contacts(
    session: TenantSession, filters: Any, pii: bool, after_id: str | None, limit: int, region: str
) -> Built | list[Step]:
    return contacts_repository.list_statement(
        session, filters, pii=pii, after_id=after_id, limit=limit, region=region
    )


def _contacts_walk(
    session: TenantSession, filters: Any, pii: bool, resuming: bool, region: str
) -> Built:
    return contacts_repository.changes_statement(
        session, filters, pii=pii, resuming=resuming, region=region
    )


async def _contact_render(session: TenantSession, pii: bool) -> Render:
    custom = await contacts_service.definitions(session)
    return contacts_render.list_item(pii=pii, stored=session.dialect == "sqlite", custom=custom)


async def _deal_render(session: TenantSession, pii: bool) -> Render:
    custom = await deals_service.definitions(session)
    return lambda row: deals_render.deal(row, pii=pii, custom=custom)


async def _message_render(session: TenantSession, pii: bool) -> Render:
    return lambda row: messages_render.message(row, pii=pii)


async def _task_render(session: TenantSession, pii: bool) -> Render:
    return tasks_render.task


async def _appointment_render(session: TenantSession, pii: bool) -> Render:
    return appointments_render.appointment


async def _lead_render(session: TenantSession, pii: bool) -> Render:
    now = session.now()  # the moment the export began, as a list's is its request's
    return lambda row: leads_render.lead(row, pii=pii, now=now)


OBJECTS: dict[str, Exportable] = {
    item.name: item
    for item in (
        Exportable(
            "contacts",
            Scope.contacts_read,
            Contact,
            ContactFilters,
            _contacts,
            _contacts_walk,
            _contact_render,
            contact_data=True,
        ),
        Exportable(
            "leads",
            Scope.leads_read,
            Lead,
            LeadFilters,
            _listed(leads_repository.listing),
            _listed_walk(leads_repository.listing),
            _lead_render,
            contact_data=True,
        ),
        Exportable(
            "deals",
            Scope.deals_read,
            Deal,
            DealFilters,
            _listed(deals_repository.listing),
            _listed_walk(deals_repository.listing),
            _deal_render,
            contact_data=False,
        ),
        Exportable(
            "messages",
            Scope.messages_read,
            Message,
            MessageFilters,
            _listed(messages_repository.listing),
            _listed_walk(messages_repository.listing),
            _message_render,
            contact_data=True,
        ),
        Exportable(
            "tasks",
            Scope.appointments_read,
            Task,
            TaskFilters,
            _listed(tasks_repository.listing),
            _listed_walk(tasks_repository.listing),
            _task_render,
            contact_data=True,
        ),
        Exportable(
            "appointments",
            Scope.appointments_read,
            Appointment,
            AppointmentFilters,
            _listed(appointments_repository.listing),
            _listed_walk(appointments_repository.listing),
            _appointment_render,
            contact_data=True,
        ),
    )
}
CONTACT_DATA = tuple(name for name, item in OBJECTS.items() if item.contact_data)
