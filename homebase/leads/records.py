"""A lead as the code carries it: the `leads` table's row (models/lead.py), typed.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import datetime
from typing import Literal

from typing_extensions import TypedDict

from homebase.kit.wire import JsonObject
from homebase.routing.schemas import RuleRef

RoutingStatus = Literal["assigned", "unassigned", "skipped"]


class LeadRecord(TypedDict):
    id: str
    contact_id: str | None
    first_name: str | None
    last_name: str | None
    email: str | None
    phone: str
    phone_e164: str | None
    source: str
    source_ref: str | None
    context: JsonObject  # the client's free-form members, kept whole
    consent_id: str | None
    consent_expires_at: datetime | None
    routing_status: RoutingStatus
    assignee_id: str | None
    assigned_at: datetime | None
    routing_rule_id: str | None
    routing_method: str | None
    rotation_turn: int | None
    routing_reason: str | None
    created_at: datetime
    updated_at: datetime


class LeadConsent(TypedDict):
    """What deciding whether the AI may text a lead reads of it (render.ai_outbound_allowed)."""

    id: str
    phone_e164: str | None
    consent_expires_at: datetime | None


class LeadErasure(TypedDict):
    """What erasing a lead reads of it (repository.lead_rows_of)."""

    id: str
    phone: str
    context: JsonObject  # the client's free-form members


class LeadChanges(TypedDict, total=False):
    """The columns an assignment writes (service.assign_lead)."""

    routing_status: RoutingStatus
    assignee_id: str | None
    assigned_at: datetime | None
    routing_rule_id: str | None
    routing_method: str | None
    rotation_turn: int | None
    routing_reason: str | None
    updated_at: datetime


class LeadAssignment(TypedDict):
    """What an assignment did (service.assign_lead): the lead as it is now and the
    decision; endpoints.assign_lead sends it as an AssignResult."""

    lead: LeadRecord
    assignee_id: str | None
    previous_assignee_id: str | None
    changed: bool
    method: str | None
    rule: RuleRef | None
    rotation_turn: int | None
    reason: str
