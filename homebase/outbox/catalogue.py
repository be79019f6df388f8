"""The spec's event catalogue: every event name and the scope needed to read it."""

from homebase.auth.scopes import Scope

EVENT_SCOPES: dict[str, Scope] = {
    "contact.created": Scope.contacts_read,
    "contact.updated": Scope.contacts_read,
    "contact.stage_changed": Scope.contacts_read,
    "contact.tag_added": Scope.contacts_read,
    "lead.created": Scope.leads_read,
    "lead.assigned": Scope.leads_read,
    "message.received": Scope.messages_read,
    "message.sent": Scope.messages_read,
    "call.completed": Scope.calls_read,
    "appointment.booked": Scope.appointments_read,
    "appointment.rescheduled": Scope.appointments_read,
    "appointment.outcome": Scope.appointments_read,
    "deal.stage_changed": Scope.deals_read,
    "automation.run": Scope.automations_read,
    "document.signed": Scope.deals_read,
    "saved_search.sent": Scope.contacts_read,
    # Beyond the spec's table (v1 allows additive event types): the AI handed a lead to a
    # person (docs/ai.md, "Handoff").
    "ai.handoff": Scope.messages_read,
}

EVENT_TYPES: tuple[str, ...] = tuple(EVENT_SCOPES)
