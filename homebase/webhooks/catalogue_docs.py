"""The event catalogue as documentation: what emits each event and its data members.

Feeds the OpenAPI document's `webhooks` section (one POST per event, with the envelope,
the headers and an example) and mirrors the table in docs/webhooks.md.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fastapi import APIRouter, FastAPI
from pydantic import BaseModel, ConfigDict, Field, create_model

from homebase.outbox.catalogue import EVENT_SCOPES
from homebase.webhooks.signing import LEGACY_SUNSET

STR, OSTR, BOOL, INT, ANY = str, str | None, bool, int | None, Any


@dataclass(frozen=True)
class EventDoc:
    emitted_by: str
    members: dict[str, tuple[Any, str]] = field(default_factory=dict)
    example: dict[str, Any] = field(default_factory=dict)  # an event's JSON, as documented


_CONTACT = {
    "id": (STR, "contact id"),
    "first_name": (OSTR, ""),
    "last_name": (OSTR, ""),
    "email": (OSTR, "masked"),
    "phone": (OSTR, "masked"),
    "phone_e164": (OSTR, "phone in E.164, masked"),
    "stage": (STR, ""),
    "source": (OSTR, ""),
    "tags": (list[str], ""),
    "notes": (OSTR, ""),
    "owner_id": (OSTR, ""),
    # the JSON type the document gives the member: an object of the workspace's own keys
    "custom_fields": (dict[str, Any], "values by key of the live custom fields (text masked)"),
    "pii_masked": (BOOL, "always true in events"),
    "ai_auto_response_paused": (BOOL, "the AI's replies to the contact are paused"),
    "ai_auto_response_paused_at": (OSTR, "when the AI was paused"),
    "ai_auto_response_paused_reason": (
        OSTR,
        "note, human_message, handoff, daily_limit, manual or opt_out; null while the AI answers",
    ),
    "anonymized_at": (OSTR, "set by DELETE"),
    "created_at": (STR, ""),
    "updated_at": (STR, ""),
}
_CONTACT_EXAMPLE = {
    "id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "d***@example.com",
    "phone": "+* *** ***-0142",
    "phone_e164": "+*******0142",
    "stage": "LEAD",
    "source": "Zillow",
    "tags": ["buyer"],
    "notes": None,
    "owner_id": None,
    "custom_fields": {"price_max": 1450000},
    "pii_masked": True,
    "ai_auto_response_paused": False,
    "ai_auto_response_paused_at": None,
    "ai_auto_response_paused_reason": None,
    "anonymized_at": None,
    "created_at": "2026-11-20T17:04:05.123Z",
    "updated_at": "2026-11-20T17:04:05.123Z",
}
_MESSAGE = {
    "id": (STR, "message id"),
    "contact_id": (OSTR, ""),
    "channel": (STR, "SMS, WHATSAPP or EMAIL"),
    "direction": (STR, "OUTBOUND|INBOUND"),
    "status": (STR, ""),
    "ai_generated": (BOOL, "composed by the AI"),
    "from": (OSTR, "masked"),
    "to": (OSTR, "masked"),
}
_MESSAGE_EXAMPLE = {
    "id": "msg_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "contact_id": _CONTACT_EXAMPLE["id"],
    "channel": "SMS",
    "direction": "OUTBOUND",
    "status": "SENT",
    "ai_generated": True,
    "from": "+*******0100",
    "to": "+*******0142",
}
_LEAD_EXAMPLE = {
    "id": "lea_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "contact_id": _CONTACT_EXAMPLE["id"],
    "phone": "+* *** ***-0142",
    "source": "Zillow",
    "pii_masked": True,
    "ai_outbound_allowed": True,
    "routing_status": "assigned",
}

_APPOINTMENT = {
    "id": (STR, "appointment id"),
    "contact_id": (STR, ""),
    "title": (STR, ""),
    "starts_at": (STR, ""),
    "ends_at": (STR, ""),
    "location": (OSTR, ""),
    "created_by": (OSTR, "member"),
    "assignee_id": (OSTR, "member"),
    "outcome": (OSTR, "showed, no_show or cancelled"),
    "outcome_recorded_at": (OSTR, ""),
    "status": (STR, "scheduled, done or cancelled"),
    "created_at": (STR, ""),
    "updated_at": (STR, ""),
}
_APPOINTMENT_EXAMPLE = {
    "id": "apt_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "contact_id": _CONTACT_EXAMPLE["id"],
    "title": "Showing: 1421 Sanchez St",
    "starts_at": "2026-11-21T17:00:00.000Z",
    "ends_at": "2026-11-21T17:45:00.000Z",
    "location": "1421 Sanchez St",
    "created_by": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "outcome": None,
    "outcome_recorded_at": None,
    "status": "scheduled",
    "created_at": "2026-11-20T17:04:05.123Z",
    "updated_at": "2026-11-20T17:04:05.123Z",
}

EVENT_DOCS: dict[str, EventDoc] = {
    "contact.created": EventDoc(
        "POST /contacts; POST /leads when it creates the contact", _CONTACT, _CONTACT_EXAMPLE
    ),
    "contact.updated": EventDoc(
        "PATCH /contacts/{id} that changes something; DELETE /contacts/{id} (changed: "
        "[\"anonymized\"]); a pause or resume of the contact's AI (a note, a person's "
        "POST /messages, POST /contacts/{id}/ai/pause or /ai/resume, the AI's handoff or "
        "daily cap; changed: the three ai_auto_response_paused* members)",
        {**_CONTACT, "changed": (list[str], "names of changed fields")},
        {**_CONTACT_EXAMPLE, "changed": ["stage"]},
    ),
    "contact.stage_changed": EventDoc(
        "PATCH /contacts/{id} with a different stage",
        {"id": (STR, "contact id"), "previous_stage": (STR, ""), "stage": (STR, "")},
        {"id": _CONTACT_EXAMPLE["id"], "previous_stage": "LEAD", "stage": "HOT_LEAD"},
    ),
    "contact.tag_added": EventDoc(
        "POST /contacts (one per tag); PATCH /contacts/{id} adding tags (one per new tag)",
        {"id": (STR, "contact id"), "tag": (STR, "the tag added"), "tags": (list[str], "all")},
        {"id": _CONTACT_EXAMPLE["id"], "tag": "buyer", "tags": ["buyer"]},
    ),
    "lead.created": EventDoc(
        "POST /leads",
        {
            "id": (STR, "lead id"),
            "contact_id": (OSTR, ""),
            "phone": (OSTR, "masked"),
            "source": (STR, ""),
            "ai_outbound_allowed": (BOOL, ""),
            "routing_status": (STR, ""),
            "...": (ANY, "and the other Lead fields, masked (`context` by value)"),
        },
        _LEAD_EXAMPLE,
    ),
    "lead.assigned": EventDoc(
        "POST /leads (when routed); POST /leads/{id}/assign",
        {
            "lead_id": (STR, ""),
            "contact_id": (OSTR, ""),
            "assignee_id": (OSTR, ""),
            "previous_assignee_id": (OSTR, ""),
            "rule_id": (OSTR, ""),
            "method": (OSTR, ""),
            "reason": (OSTR, ""),
            # the JSON type the document gives the member: the lead's JSON, as emitted
            "lead": (dict[str, Any], "the lead, as in lead.created"),
        },
        {
            "lead_id": _LEAD_EXAMPLE["id"],
            "contact_id": _CONTACT_EXAMPLE["id"],
            "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "previous_assignee_id": None,
            "rule_id": "rrl_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "method": "round_robin",
            "reason": "rule Zillow buyers matched",
            "lead": _LEAD_EXAMPLE,
        },
    ),
    "message.received": EventDoc(
        "inbound provider callback (SMS, WhatsApp, email)",
        _MESSAGE,
        {**_MESSAGE_EXAMPLE, "direction": "INBOUND", "ai_generated": False, "status": "RECEIVED"},
    ),
    "message.sent": EventDoc(
        "POST /messages once the provider accepts it, AI-composed sends included",
        _MESSAGE,
        _MESSAGE_EXAMPLE,
    ),
    "call.completed": EventDoc(
        "the call provider's completion callback (AI-handled calls included)",
        {
            "id": (STR, "call id"),
            "contact_id": (OSTR, ""),
            "direction": (STR, ""),
            "from": (OSTR, "masked"),
            "to": (OSTR, "masked"),
            "handled_by": (STR, "ai|human"),
            "user_id": (OSTR, ""),
            "started_at": (OSTR, ""),
            "ended_at": (OSTR, ""),
            "duration_seconds": (INT, ""),
            "disposition": (OSTR, ""),
            "summary": (OSTR, "AI; phone numbers and addresses written in it masked"),
            "has_recording": (BOOL, ""),
            "provider_call_id": (OSTR, ""),
        },
        {
            "id": "cal_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "contact_id": _CONTACT_EXAMPLE["id"],
            "direction": "inbound",
            "from": "+*******0142",
            "to": "+*******0100",
            "handled_by": "ai",
            "user_id": None,
            "started_at": "2026-11-20T17:00:00.000Z",
            "ended_at": "2026-11-20T17:04:00.000Z",
            "duration_seconds": 240,
            "disposition": "appointment_set",
            "summary": "Wants a Saturday showing.",
            "has_recording": True,
            "provider_call_id": "CA123",
        },
    ),
    "deal.stage_changed": EventDoc(
        "PATCH /deals/{id} moving it to another stage",
        {
            "id": (STR, "deal id"),
            "title": (STR, ""),
            "contact_id": (OSTR, ""),
            "pipeline_id": (STR, ""),
            "previous_pipeline_id": (STR, ""),
            "previous_stage_id": (STR, ""),
            "previous_stage": (STR, ""),
            "stage_id": (STR, ""),
            "stage": (STR, ""),
            "status": (STR, ""),
            "value": (ANY, ""),
            "currency": (STR, ""),
        },
        {
            "id": "dea_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "title": "12 Elm St",
            "contact_id": _CONTACT_EXAMPLE["id"],
            "pipeline_id": "pip_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "previous_pipeline_id": "pip_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "previous_stage_id": "stg_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "previous_stage": "Showing",
            "stage_id": "stg_01jd3v6k8h2k3m4n5p6q7r8s9v",
            "stage": "Offer",
            "status": "open",
            "value": "650000.00",
            "currency": "USD",
        },
    ),
    "document.signed": EventDoc(
        "`homebase admin emit-event --type document.signed` (v1 has no signing feature; "
        "docs/automations.md)",
        {
            "document_id": (STR, "the signing service's id"),
            "name": (STR, ""),
            "deal_id": (OSTR, ""),
            "contact_id": (OSTR, ""),
            "signer_name": (OSTR, ""),
            "signed_at": (STR, ""),
        },
        {
            "document_id": "env_7f3a",
            "name": "Purchase agreement",
            "deal_id": "dea_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "contact_id": _CONTACT_EXAMPLE["id"],
            "signer_name": "Dana Reyes",
            "signed_at": "2026-11-20T17:00:00.000Z",
        },
    ),
    "appointment.booked": EventDoc(
        "POST /appointments (notes are never in events)", _APPOINTMENT, _APPOINTMENT_EXAMPLE
    ),
    "appointment.rescheduled": EventDoc(
        "PATCH /appointments/{id} with new starts_at and ends_at",
        {**_APPOINTMENT, "previous_starts_at": (STR, ""), "previous_ends_at": (STR, "")},
        {
            **_APPOINTMENT_EXAMPLE,
            "starts_at": "2026-11-22T18:00:00.000Z",
            "ends_at": "2026-11-22T18:45:00.000Z",
            "previous_starts_at": "2026-11-21T17:00:00.000Z",
            "previous_ends_at": "2026-11-21T17:45:00.000Z",
        },
    ),
    "appointment.outcome": EventDoc(
        "PATCH /appointments/{id} with a different outcome",
        {**_APPOINTMENT, "previous_outcome": (OSTR, "null the first time")},
        {
            **_APPOINTMENT_EXAMPLE,
            "outcome": "no_show",
            "status": "done",
            "outcome_recorded_at": "2026-11-21T18:00:00.000Z",
            "previous_outcome": None,
        },
    ),
    "automation.run": EventDoc(
        "POST /automations/{id}/enroll creating an enrolment (not a repeat for a contact "
        "already active in it), and a campaign reaching an enrolled contact (the campaign "
        "job, docs/automations.md)",
        {
            "id": (STR, "enrolment id (a campaign's: its campaign enrolment's)"),
            "automation_id": (OSTR, "null for a campaign that names no automation"),
            "automation_name": (OSTR, "null when automation_id is"),
            "campaign_id": (OSTR, "the campaign that reached the contact; null for an enrol"),
            "contact_id": (STR, ""),
            "status": (STR, "active (an enrolment), reached (a campaign's reach)"),
            "steps": (INT, "step count (0 without an automation)"),
            "enrolled_at": (STR, ""),
        },
        {
            "id": "enr_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "automation_id": "aut_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "automation_name": "New buyer lead follow-up",
            "campaign_id": None,
            "contact_id": _CONTACT_EXAMPLE["id"],
            "status": "active",
            "steps": 4,
            "enrolled_at": "2026-11-20T17:04:05.123Z",
        },
    ),
    "saved_search.sent": EventDoc(
        "`homebase admin emit-event --type saved_search.sent` (v1 has no listing alerts; "
        "docs/automations.md)",
        {
            "saved_search_id": (STR, ""),
            "name": (STR, ""),
            "contact_id": (STR, ""),
            "listing_ids": (list[str], ""),
            "channel": (STR, "EMAIL or SMS"),
            "sent_at": (STR, ""),
        },
        {
            "saved_search_id": "ss_42",
            "name": "3-bed Noe Valley under 1.6M",
            "contact_id": _CONTACT_EXAMPLE["id"],
            "listing_ids": ["lst_01jd3v6k8h2k3m4n5p6q7r8s9t"],
            "channel": "EMAIL",
            "sent_at": "2026-11-20T17:00:00.000Z",
        },
    ),
    "ai.handoff": EventDoc(
        'the AI responder handing a lead to a person (docs/ai.md, "Handoff"), with the '
        "task it made",
        {
            "contact_id": (STR, ""),
            "task_id": (STR, "the handoff's task"),
            "assignee_id": (OSTR, "the contact's owner, else the persona's handoff_assignee"),
            "due_at": (OSTR, "handoff_minutes counted inside the persona's showing hours"),
            "priority": (STR, "the task's: low, normal or high"),
            "reason": (
                STR,
                "asked_for_person, commission, legal, lending, fair_housing, model, language, ...",
            ),
            "urgency": (OSTR, "the model's: low, normal or high; null when it gave none"),
            "summary": (STR, "what the lead wants, what was learned, what was promised (masked)"),
            "ai_job_id": (OSTR, "the AI job that handed off"),
            "message_id": (OSTR, "the text that handed off without a job (no_calls)"),
        },
        {
            "contact_id": _CONTACT_EXAMPLE["id"],
            "task_id": "tsk_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "due_at": "2026-11-21T14:15:00.000Z",
            "priority": "high",
            "reason": "model",
            "urgency": "high",
            "summary": "Wants: a call tonight about an offer on 12 Elm St\n"
            "Learned: source Zillow, stage LEAD, intent buy\nPromised: nothing yet",
            "ai_job_id": "aij_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "message_id": None,
        },
    ),
}
assert set(EVENT_DOCS) == set(EVENT_SCOPES), "every catalogue event is documented"

_SUNSET = LEGACY_SUNSET.date().isoformat()
# (header, description, always sent): the older timestamped pair stops at its sunset.
HEADERS = [
    ("X-Webhook-Event", "The event name.", True),
    ("X-Webhook-Delivery", "The delivery id: the same on every attempt and redelivery.", True),
    (
        "X-Webhook-Signature",
        "`sha256=` + hex HMAC-SHA256 of the raw body, keyed by the secret.",
        True,
    ),
    (
        "webhook-id",
        "Standard Webhooks: the event id (`data.event_id`), the same on every attempt.",
        True,
    ),
    ("webhook-timestamp", "Standard Webhooks: Unix seconds when this attempt was signed.", True),
    (
        "webhook-signature",
        "Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>."
        "<raw body>`, keyed by the base64 decoding of the secret after `whsec_`: pass the "
        "secret unchanged to a Standard Webhooks library.",
        True,
    ),
    (
        "X-Webhook-Timestamp",
        f"Unix seconds when this attempt was signed. Deprecated: not sent from {_SUNSET} on "
        "(use webhook-timestamp).",
        False,
    ),
    (
        "X-Webhook-Signature-Timestamped",
        "`sha256=` + hex HMAC-SHA256 of `<timestamp>.<raw body>`. Deprecated: not sent from "
        f"{_SUNSET} on (use webhook-signature).",
        False,
    ),
    ("X-Webhook-Attempt", "1 to 6 within the current schedule.", True),
]


def _nullable(kind: Any) -> bool:
    return kind is ANY or type(None) in getattr(kind, "__args__", ())


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace(".", "_").split("_"))


# Each event's models, made once per process: every app (a test makes one each) documents
# the same catalogue, so making them again for each app would repeat the same work.
_MODELS: dict[str, type[BaseModel]] = {}


def _envelope(name: str, doc: EventDoc) -> type[BaseModel]:
    model = _MODELS.get(name)
    if model is None:
        model = _MODELS[name] = _envelope_model(name, doc)
    return model


def _envelope_model(name: str, doc: EventDoc) -> type[BaseModel]:
    # Nullable members are optional in the schema: the document's examples drop nulls.
    # Any: a **mapping's values are checked against create_model's own keywords too.
    members: dict[str, Any] = {
        key: (kind, Field(None if _nullable(kind) else ..., description=text or None))
        for key, (kind, text) in doc.members.items()
        if key != "..."
    }
    data_example = {
        "event_id": "evt_01jd3v6k8h2k3m4n5p6q7r8s9t",
        "occurred_at": "2026-11-20T17:04:05.123Z",
        **doc.example,
    }
    data = create_model(
        f"{_camel(name)}Data",
        __config__=ConfigDict(extra="allow", json_schema_extra={"examples": [data_example]}),
        event_id=(str, Field(description="Stable across redeliveries; deduplicate on it.")),
        occurred_at=(datetime, ...),
        **members,
    )
    return create_model(
        f"{_camel(name)}Event",
        __config__=ConfigDict(
            json_schema_extra={
                "examples": [
                    {
                        "event": name,
                        "tenantId": "wsp_01jd3v6k8h2k3m4n5p6q7r8s9t",
                        "occurredAt": data_example["occurred_at"],
                        "data": data_example,
                    }
                ]
            }
        ),
        event=(str, Field(description=f"Always `{name}`.")),
        tenantId=(str, ...),
        occurredAt=(datetime, ...),
        data=(data, ...),
    )


def install(app: FastAPI) -> None:
    """One documented POST per event in app.webhooks (the OpenAPI `webhooks` section)."""
    router: APIRouter = app.webhooks
    for name, doc in EVENT_DOCS.items():
        model = _envelope(name, doc)

        # A model made at run time: FastAPI reads the annotation, a checker cannot.
        async def receive(body: model) -> None:  # type: ignore[valid-type]
            """Documentation only: receivers implement this."""

        source = f"Emitted by: {doc.emitted_by}."
        router.add_api_route(
            name,
            receive,
            methods=["POST"],
            summary=name,
            status_code=200,
            operation_id=f"webhook_{name.replace('.', '_')}",
            description=f"{source} Needs {EVENT_SCOPES[name].value} (the subscribing "
            "credential's scopes). Phone numbers and email addresses are always masked, "
            "in every string member (free text and free-form objects such as a lead's "
            "`context` included; docs/webhooks.md). Any 2xx "
            "acknowledges; anything else, a redirect or no answer within 10 s is "
            "retried after 1, 2, 4, 8 and 16 minutes (6 attempts); a 429 or 503 with "
            "Retry-After moves the next attempt later, at most to the following step's "
            "wait. A subscription whose every attempt fails for 5 days "
            "(HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS) is disabled: see PATCH /v1/webhooks/{id}.",
            openapi_extra={
                "parameters": [
                    {
                        "name": header,
                        "in": "header",
                        "required": required,
                        "schema": {"type": "string"},
                        "description": text,
                        **({} if required else {"deprecated": True}),
                    }
                    for header, text, required in HEADERS
                ]
            },
            responses={200: {"description": "Any 2xx acknowledges the delivery."}},
        )
