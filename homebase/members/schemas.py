from typing import Annotated, Literal

from pydantic import BaseModel, Field, with_config
from typing_extensions import TypedDict

from homebase.kit.wire import WireTime


# A member as GET /v1/members sends it (render.member). No docstring: it would become
# the schema's description.
@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "usr_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "name": "Maya Chen",
                "email": "m***@example.com",
                "pii_masked": True,
                "office_id": "off_downtown",
                "team_id": "tea_buyers",
                "phone": "+1415*****00",
                "takes_leads": True,
                "removed": False,
                "removed_at": None,
                "created_at": "2026-11-20T17:04:05.123Z",
            }
        ]
    }
)
class WorkspaceMember(TypedDict):
    id: Annotated[
        str, Field(description="What a contact's owner_id and a lead's assignee_id name.")
    ]
    name: str
    email: Annotated[
        str,
        Field(
            description="The member's sign-in address. Masked as contacts' are unless the "
            "credential holds contacts:read:pii."
        ),
    ]
    pii_masked: Annotated[bool, Field(description="True when email and phone are masked.")]
    office_id: str | None
    team_id: str | None
    phone: Annotated[
        str | None,
        Field(
            description="The member's phone (E.164), where the AI's calls are transferred "
            "to (docs/voice.md); masked as email is. Null when not given."
        ),
    ]
    takes_leads: Annotated[
        bool,
        Field(
            description="Whether routing can give this member leads now: an enabled routing "
            "rule names them, or targets their team or office (docs/leads.md). Always false "
            "for a removed member."
        ),
    ]
    removed: Annotated[
        bool,
        Field(
            description="Removed from the workspace (no sign-in, no routing, no new work); "
            "the member stays listed, as contacts, leads and the timeline still name them."
        ),
    ]
    removed_at: WireTime | None
    created_at: WireTime


class MemberFilters(BaseModel):
    removed: Literal["true", "false"] | None = Field(
        None, description="true: only removed members; false: only current ones."
    )
