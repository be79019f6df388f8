from enum import StrEnum


class WebhookCreateEventTypesItem(StrEnum):
    AI_HANDOFF = "ai.handoff"
    APPOINTMENT_BOOKED = "appointment.booked"
    APPOINTMENT_OUTCOME = "appointment.outcome"
    APPOINTMENT_RESCHEDULED = "appointment.rescheduled"
    AUTOMATION_RUN = "automation.run"
    CALL_COMPLETED = "call.completed"
    CONTACT_CREATED = "contact.created"
    CONTACT_STAGE_CHANGED = "contact.stage_changed"
    CONTACT_TAG_ADDED = "contact.tag_added"
    CONTACT_UPDATED = "contact.updated"
    DEAL_STAGE_CHANGED = "deal.stage_changed"
    DOCUMENT_SIGNED = "document.signed"
    LEAD_ASSIGNED = "lead.assigned"
    LEAD_CREATED = "lead.created"
    MESSAGE_RECEIVED = "message.received"
    MESSAGE_SENT = "message.sent"
    SAVED_SEARCH_SENT = "saved_search.sent"

    def __str__(self) -> str:
        return str(self.value)
