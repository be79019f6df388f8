"""A campaign's enrolments on the wire: POST /v1/campaigns/{id}/enroll's body and answer,
GET /v1/campaigns/{id} with its counts, GET /v1/campaigns/{id}/contacts' items."""

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, with_config
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.automations.schemas import Campaign
from homebase.contacts.schemas import NO_NUL, ContactStage
from homebase.kit.wire import WireTime

MAX_CONTACTS = 1000  # contacts enrolled by one call, named or matched by its filter
_CAMPAIGN_ID = "cmp_01jd3v6k8h2k3m4n5p6q7r8s9t"
_CONTACT_ID = "con_01jd3v6k8h2k3m4n5p6q7r8s9t"
_WHEN = "2026-11-20T17:04:05.123Z"
_LATER = "2026-11-20T18:10:00.000Z"
ContactId = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=NO_NUL)]


class CampaignSkipReason(StrEnum):
    """Why a campaign did not reach an enrolled contact (docs/automations.md, "Campaigns")."""

    erased = "erased"  # the contact's data was erased
    no_phone = "no_phone"  # no valid phone number to text or call
    suppressed = "suppressed"  # opted out (STOP) or asked not to be called
    no_consent = "no_consent"  # no unexpired consent artifact, or a lead refusing AI outreach
    ai_paused = "ai_paused"  # the contact's AI auto-response is paused
    recent_conversation = "recent_conversation"  # a message either way in the last 24 hours
    dnc_registry = "dnc_registry"  # on the National Do Not Call Registry, consent older
    campaign_ended = "campaign_ended"  # the campaign's end date passed
    attempt_limit = "attempt_limit"  # the first-touch path's attempts by state are spent
    refused = "refused"  # the first-touch path refused it for a reason of its own


class CampaignContactState(StrEnum):
    pending = "pending"
    reached = "reached"
    replied = "replied"
    booked = "booked"
    opted_out = "opted_out"
    skipped = "skipped"


class CampaignAudience(BaseModel):
    """The contacts list's filters (GET /v1/contacts), validated as it validates them and
    matched by the same listing."""

    model_config = ConfigDict(
        extra="forbid",
        # every filter is optional, as the list's query parameters are
        json_schema_extra={"required": [], "examples": [{"stage": "PAST_CLIENT", "tag": "sphere"}]},
    )

    stage: ContactStage | None = Field(None, description="Only contacts in this stage.")
    source: Annotated[str, StringConstraints(max_length=80, pattern=NO_NUL)] | None = Field(
        None, description="Only contacts with exactly this source."
    )
    tag: Annotated[str, StringConstraints(max_length=40, pattern=NO_NUL)] | None = Field(
        None, description="Only contacts carrying this tag."
    )
    q: Annotated[str, StringConstraints(max_length=120, pattern=NO_NUL)] | None = Field(
        None, description="Search, as GET /v1/contacts' `q` (its rules for email and phone)."
    )
    owner_id: Annotated[str, StringConstraints(max_length=40, pattern=NO_NUL)] | None = Field(
        None, description="Only contacts owned by this member."
    )


class CampaignEnrollRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        # one of the two, which the service checks (400 naming both when it is not)
        json_schema_extra={
            "required": [],
            "examples": [{"contact_ids": [_CONTACT_ID]}, {"filter": {"tag": "sphere"}}],
        },
    )

    contact_ids: Annotated[list[ContactId], Field(min_length=1, max_length=MAX_CONTACTS)] | None = (
        Field(
            None,
            description="Contacts of this workspace to enrol (1 to 1,000); give this or "
            "`filter`, not both.",
        )
    )
    filter: CampaignAudience | None = Field(
        None,
        description="Enrol every contact the contacts list shows with these filters (at "
        "most 1,000; erased contacts are left out); give this or `contact_ids`.",
    )


@with_config(
    json_schema_extra={
        "examples": [
            {"campaign_id": _CAMPAIGN_ID, "matched": 3, "enrolled": 2, "already_enrolled": 1}
        ]
    }
)
class CampaignEnrollResult(TypedDict):
    campaign_id: str
    matched: Annotated[int, Field(description="Distinct contacts named or matched.")]
    enrolled: Annotated[int, Field(description="Enrolled by this call.")]
    already_enrolled: Annotated[
        int, Field(description="Already enrolled in the campaign: kept as they are.")
    ]


_COUNTS_EXAMPLE: JsonDict = {
    "enrolled": 120,
    "pending": 70,
    "reached": 40,
    "replied": 9,
    "booked": 2,
    "opted_out": 1,
    "skipped": 10,
    "skipped_by_reason": {"no_consent": 6, "dnc_registry": 3, "recent_conversation": 1},
}


@with_config(json_schema_extra={"examples": [_COUNTS_EXAMPLE]})
class CampaignCounts(TypedDict):
    enrolled: Annotated[int, Field(description="Every contact enrolled.")]
    pending: Annotated[int, Field(description="Not yet reached nor skipped.")]
    reached: Annotated[int, Field(description="Reached, whatever they did after.")]
    replied: Annotated[int, Field(description="Reached and wrote back after it.")]
    booked: Annotated[int, Field(description="Reached and had an appointment booked after it.")]
    opted_out: Annotated[int, Field(description="Reached and opted out after it.")]
    skipped: Annotated[int, Field(description="Not reached, for a reason in skipped_by_reason.")]
    skipped_by_reason: Annotated[
        dict[str, int], Field(description="Skipped contacts by CampaignSkipReason.")
    ]


@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": _CAMPAIGN_ID,
                "name": "Spring open houses",
                "persona_id": "prs_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "automation_id": None,
                "status": "active",
                "audience": "Our sphere",
                "goal": "Invite them to Saturday's open house at 12 Elm St.",
                "channel": "text",
                "rate_per_hour": 30,
                "ends_at": None,
                "created_at": _WHEN,
                "updated_at": _WHEN,
                "counts": _COUNTS_EXAMPLE,
            }
        ]
    }
)
class CampaignReport(Campaign):
    counts: Annotated[
        CampaignCounts,
        Field(description='Where its enrolled contacts are (docs/automations.md, "Campaigns").'),
    ]


@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "cen_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "campaign_id": _CAMPAIGN_ID,
                "contact_id": _CONTACT_ID,
                "state": "replied",
                "skip_reason": None,
                "enrolled_at": _WHEN,
                "reached_at": _WHEN,
                "skipped_at": None,
                "replied_at": _LATER,
                "booked_at": None,
                "opted_out_at": None,
                "updated_at": _WHEN,
            }
        ]
    }
)
class CampaignContact(TypedDict):
    id: str
    campaign_id: str
    contact_id: str
    state: Annotated[
        CampaignContactState,
        Field(
            description="pending, skipped, or once reached the furthest of reached, replied, "
            "booked and opted_out (in that order) the contact went after it."
        ),
    ]
    skip_reason: Annotated[
        CampaignSkipReason | None, Field(description="Why it was skipped; null otherwise.")
    ]
    enrolled_at: WireTime
    reached_at: WireTime | None
    skipped_at: WireTime | None
    replied_at: Annotated[
        WireTime | None, Field(description="The contact's first message after the reach.")
    ]
    booked_at: Annotated[
        WireTime | None, Field(description="The first appointment booked after the reach.")
    ]
    opted_out_at: Annotated[
        WireTime | None, Field(description="When the contact opted out after the reach.")
    ]
    updated_at: WireTime
