from typing import Annotated, Literal, NotRequired

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.consent.schemas import CONSENT_EXAMPLE, ConsentIn
from homebase.contacts.schemas import PHONE_E164_DESCRIPTION, Email, Name
from homebase.kit import freeform
from homebase.kit.pagination import UpdatedAfter, updated_after_field
from homebase.kit.wire import JsonObject, WireTime
from homebase.kit.write_warnings import PHONE_WARNING_EXAMPLE, WARNINGS_DESCRIPTION, WriteWarning
from homebase.routing.schemas import RuleRef

_CONTEXT_EXAMPLE: JsonDict = {
    "zip": "94110",
    "city": "San Francisco",
    "price": 1250000,
    "tags": ["buyer"],
    "listing_address": "123 Valencia St",
}
_LEAD_EXAMPLE: JsonDict = {
    "phone": "+1 415 555 0142",
    "source": "Zillow",
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "source_ref": "zl-884213",
    "context": _CONTEXT_EXAMPLE,
    "consent": CONSENT_EXAMPLE,
}


class LeadCreate(BaseModel):
    """phone and source are required. context feeds routing: zip, city, price, tags,
    stage, office_id and team_id are read from it when present."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_LEAD_EXAMPLE]})

    phone: Annotated[str, StringConstraints(min_length=5, max_length=32)]
    source: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    first_name: Name | None = None
    last_name: Name | None = None
    email: Email | None = None
    source_ref: Annotated[str, StringConstraints(max_length=120)] | None = None
    context: Annotated[JsonObject, AfterValidator(freeform.bounded)] = Field(
        default_factory=dict,
        description="Read by routing (zip, city, price, tags, stage, "
        "office_id, team_id) and kept whole. " + freeform.DESCRIPTION,
    )
    consent: ConsentIn | None = Field(
        None, description="Evidence of consent; without it ai_outbound_allowed is false."
    )
    skip_routing: StrictBool = Field(False, description="Create the lead without routing it.")


_LEAD_OUT_EXAMPLE: JsonDict = {
    "id": "lea_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "contact_id": "con_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "d***@example.com",
    "phone": "+* *** ***-0142",
    "phone_e164": "+*******0142",
    "pii_masked": True,
    "source": "Zillow",
    "source_ref": "zl-884213",
    "context": _CONTEXT_EXAMPLE,
    "ai_outbound_allowed": True,
    "consent_id": "cns_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "consent_expires_at": "2027-11-20T17:03:58.000Z",
    "routing_status": "assigned",
    "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "assigned_at": "2026-11-20T17:04:05.123Z",
    "routing_rule_id": "rrl_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "routing_method": "round_robin",
    "routing_reason": "Rule 'SF buyers from portals' (position 1) matched and "
    "rotates round-robin over 2 agents; turn 7 went to Maya Chen (usr_...).",
    "created_at": "2026-11-20T17:04:05.123Z",
    "updated_at": "2026-11-20T17:04:05.123Z",
}


_MASKED = "Masked unless the credential holds contacts:read:pii."


# The lead as GET /v1/leads/{id} sends it (render.lead). No docstring: it would become
# the schema's description.
@with_config(json_schema_extra={"examples": [_LEAD_OUT_EXAMPLE]})
class Lead(TypedDict):
    id: str
    contact_id: Annotated[
        str | None,
        Field(
            description="The contact this lead was linked to (matched "
            "by phone or email, or created); null when the "
            "lead had neither a usable phone nor an email."
        ),
    ]
    first_name: str | None
    last_name: str | None
    email: Annotated[str | None, Field(description=_MASKED)]
    phone: Annotated[str, Field(description="As sent. " + _MASKED)]
    phone_e164: Annotated[str | None, Field(description=PHONE_E164_DESCRIPTION)]
    pii_masked: bool
    source: str
    source_ref: str | None
    context: JsonObject  # the client's free-form members, kept whole
    ai_outbound_allowed: Annotated[
        bool,
        Field(description="True while an unexpired consent artifact covers this lead's number."),
    ]
    consent_id: str | None
    consent_expires_at: WireTime | None
    routing_status: Annotated[
        Literal["assigned", "unassigned", "skipped"],
        Field(description="skipped: created with skip_routing; unassigned: no rule applied."),
    ]
    assignee_id: str | None
    assigned_at: WireTime | None
    routing_rule_id: str | None
    routing_method: Annotated[
        str | None,
        Field(
            description="agent, round_robin, first_available, or "
            "manual (POST /leads/{id}/assign with "
            "assignee_id)."
        ),
    ]
    routing_reason: str | None
    created_at: WireTime
    updated_at: WireTime


@with_config(
    json_schema_extra={
        "examples": [
            {
                **_LEAD_OUT_EXAMPLE,
                "phone": "*2345",
                "phone_e164": None,
                "contact_id": None,
                "ai_outbound_allowed": False,
                "warnings": [PHONE_WARNING_EXAMPLE],
            }
        ]
    }
)
class LeadWritten(Lead):
    """The new lead, and what the write warns about."""

    warnings: NotRequired[Annotated[list[WriteWarning], Field(description=WARNINGS_DESCRIPTION)]]


class LeadFilters(BaseModel):
    contact_id: Annotated[str, StringConstraints(max_length=40)] | None = None
    unlinked_only: Literal["true", "false"] | None = Field(
        None, description="true: only leads not linked to any contact."
    )
    updated_after: UpdatedAfter | None = updated_after_field()


class AssignRequest(BaseModel):
    # required is stated (empty): nothing is.
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": [],
            "examples": [{"assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t"}, {}],
        },
    )

    assignee_id: Annotated[str, StringConstraints(max_length=40)] | None = Field(
        None, description="A member of the workspace; omit to re-route through the rules."
    )


_ASSIGN_RESULT_EXAMPLE: JsonDict = {
    "lead_id": "lea_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "assignee_id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "previous_assignee_id": None,
    "changed": True,
    "method": "manual",
    "rule": None,
    "rotation_turn": None,
    "reason": "Assigned by hand to Maya Chen (usr_...).",
    "lead": _LEAD_OUT_EXAMPLE,
}


@with_config(json_schema_extra={"examples": [_ASSIGN_RESULT_EXAMPLE]})
class AssignResult(TypedDict):
    lead_id: str
    assignee_id: Annotated[
        str | None,
        Field(description="The assignee now (unchanged when re-routing found nobody)."),
    ]
    previous_assignee_id: str | None
    changed: Annotated[
        bool,
        Field(
            description="True when the assignee changed; only then are a "
            "timeline entry and lead.assigned written."
        ),
    ]
    method: Annotated[
        str | None,
        Field(description="manual, or the deciding rule's method; null when no rule applied."),
    ]
    rule: Annotated[RuleRef | None, Field(description="The deciding rule when re-routed.")]
    rotation_turn: Annotated[int | None, Field(description="The round-robin turn taken, if any.")]
    reason: str
    lead: Lead
