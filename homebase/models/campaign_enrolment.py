from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import UTCDateTime
from homebase.models.base import Base


class CampaignEnrolment(Base):
    """One contact enrolled in one outbound campaign: waiting to be reached (`pending`),
    `reached`, or `skipped` with the rule that kept it from being reached. What the
    contact did after the reach (replied, booked, opted out) is read from its messages,
    appointments and suppressions, never stored here (docs/automations.md, "Campaigns")."""

    __tablename__ = "campaign_enrolments"
    __table_args__ = (
        Index("ix_campaign_enrolments_workspace_id_id", "workspace_id", "id"),
        # One enrolment of a contact in a campaign (enroll's insert-if-absent).
        Index(
            "uq_campaign_enrolments_contact",
            "workspace_id",
            "campaign_id",
            "contact_id",
            unique=True,
        ),
        # GET /v1/campaigns/{id}/contacts, newest first, and the campaign's counts.
        Index("ix_campaign_enrolments_campaign", "workspace_id", "campaign_id", "id"),
        # The campaign job: a campaign's pending enrolments, oldest due first.
        Index("ix_campaign_enrolments_due", "campaign_id", "state", "due_at", "id"),
        Index("ix_campaign_enrolments_contact", "workspace_id", "contact_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id"))
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    state: Mapped[str] = mapped_column(String(16))  # pending | reached | skipped
    skip_reason: Mapped[str | None] = mapped_column(String(32))  # a CampaignSkipReason value
    # Not taken before this: when it was enrolled, or when the reach path said to try again.
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # What the reach path made of it (the first-touch job's id), None until reached.
    reference: Mapped[str | None] = mapped_column(String(40))
    actor: Mapped[str | None] = mapped_column(String(60))  # the credential that enrolled it
    reached_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    skipped_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
