"""Campaigns that run: what a campaign reaches its contacts with, and its enrolments

- campaigns.goal (what the AI is to achieve, for its prompt), channel (text | call |
  text_then_call; existing campaigns: text), rate_per_hour (existing: 30), ends_at,
  next_reach_at (the campaign job's pace); an index for the job's claim.
- campaign_enrolments: one contact in one campaign (unique), pending, reached or
  skipped with a reason, and its times: ids, states and times, never a text.

Revision ID: 0036
Revises: 0035
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0036"
down_revision = "0035"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("goal", sa.Text(), nullable=True))
        batch.add_column(
            sa.Column("channel", sa.String(length=16), nullable=False, server_default="text")
        )
        batch.add_column(
            sa.Column("rate_per_hour", sa.Integer(), nullable=False, server_default="30")
        )
        batch.add_column(_when("ends_at", nullable=True))
        batch.add_column(_when("next_reach_at", nullable=True))
    with op.batch_alter_table("campaigns") as batch:
        batch.alter_column("channel", server_default=None)
        batch.alter_column("rate_per_hour", server_default=None)
    op.create_index("ix_campaigns_due", "campaigns", ["status", "next_reach_at"])

    op.create_table(
        "campaign_enrolments",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("campaign_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("skip_reason", sa.String(length=32), nullable=True),
        _when("due_at"),
        sa.Column("reference", sa.String(length=40), nullable=True),
        sa.Column("actor", sa.String(length=60), nullable=True),
        _when("reached_at", nullable=True),
        _when("skipped_at", nullable=True),
        _when("created_at"),
        _when("updated_at"),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name=op.f("fk_campaign_enrolments_workspace_id_workspaces")),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"],
                                name=op.f("fk_campaign_enrolments_campaign_id_campaigns")),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name=op.f("fk_campaign_enrolments_contact_id_contacts")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_campaign_enrolments")),
    )
    op.create_index("ix_campaign_enrolments_workspace_id_id", "campaign_enrolments",
                    ["workspace_id", "id"])
    op.create_index("uq_campaign_enrolments_contact", "campaign_enrolments",
                    ["workspace_id", "campaign_id", "contact_id"], unique=True)
    op.create_index("ix_campaign_enrolments_campaign", "campaign_enrolments",
                    ["workspace_id", "campaign_id", "id"])
    op.create_index("ix_campaign_enrolments_due", "campaign_enrolments",
                    ["campaign_id", "state", "due_at", "id"])
    op.create_index("ix_campaign_enrolments_contact", "campaign_enrolments",
                    ["workspace_id", "contact_id"])


def downgrade() -> None:
    op.drop_table("campaign_enrolments")
    op.drop_index("ix_campaigns_due", table_name="campaigns")
    with op.batch_alter_table("campaigns") as batch:
        for name in ("next_reach_at", "ends_at", "rate_per_hour", "channel", "goal"):
            batch.drop_column(name)
