"""One scope vocabulary for API keys and OAuth tokens alike."""

from collections.abc import Iterable
from enum import StrEnum


class Scope(StrEnum):
    contacts_read = "contacts:read"
    contacts_read_pii = "contacts:read:pii"
    contacts_write = "contacts:write"
    leads_read = "leads:read"
    leads_write = "leads:write"
    events_read = "events:read"
    messages_read = "messages:read"
    messages_send = "messages:send"
    calls_read = "calls:read"
    deals_read = "deals:read"
    deals_write = "deals:write"
    listings_read = "listings:read"
    appointments_read = "appointments:read"
    appointments_write = "appointments:write"
    automations_read = "automations:read"
    automations_manage = "automations:manage"
    webhooks_manage = "webhooks:manage"


DESCRIPTIONS: dict[Scope, str] = {
    Scope.contacts_read: "See contacts and their details",
    Scope.contacts_read_pii: "See full phone numbers and email addresses instead of masked ones",
    Scope.contacts_write: "Create and update contacts, add notes and tags",
    Scope.leads_read: "See incoming leads and how they were routed",
    Scope.leads_write: "Create leads and assign them",
    Scope.events_read: "Read activity timelines: calls, messages, notes, status changes",
    Scope.messages_read: "Read texts and emails",
    Scope.messages_send: "Send texts and emails",
    Scope.calls_read: "Read call records, recordings, transcripts and AI summaries",
    Scope.deals_read: "See pipelines and deals",
    Scope.deals_write: "Create and update deals, move them between stages",
    Scope.listings_read: "See the workspace's properties",
    Scope.appointments_read: "See appointments and tasks",
    Scope.appointments_write: "Book, reschedule and cancel appointments; create tasks",
    Scope.automations_read: "See automations, campaigns and personas",
    Scope.automations_manage: "Start automations for a contact",
    Scope.webhooks_manage: "Create and remove webhook subscriptions",
}

IMPLIES: dict[Scope, tuple[Scope, ...]] = {
    Scope.contacts_write: (Scope.contacts_read,),
    Scope.contacts_read_pii: (Scope.contacts_read,),
    Scope.leads_write: (Scope.leads_read,),
    Scope.deals_write: (Scope.deals_read,),
    Scope.appointments_write: (Scope.appointments_read,),
    Scope.messages_send: (Scope.messages_read,),
    Scope.automations_manage: (Scope.automations_read,),
}

ALL_SCOPES: tuple[str, ...] = tuple(scope.value for scope in Scope)


class UnknownScope(ValueError):
    pass


def parse_scopes(names: Iterable[str]) -> list[str]:
    """Validated, de-duplicated scope names in catalogue order; raises UnknownScope."""
    wanted = {name.strip() for name in names if name.strip()}
    unknown = sorted(wanted - set(ALL_SCOPES))
    if unknown:
        raise UnknownScope(f"unknown scope(s): {', '.join(unknown)}")
    return [name for name in ALL_SCOPES if name in wanted]


def expand(granted: Iterable[str]) -> frozenset[str]:
    """The granted scopes plus everything they imply."""
    result = set(granted)
    for scope in list(result):
        for implied in IMPLIES.get(Scope(scope), ()) if scope in ALL_SCOPES else ():
            result.add(implied.value)
    return frozenset(result)
