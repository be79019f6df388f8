"""The AI responder: its jobs, its persona's fields, the pause's reason, listing links

- ai_jobs: one conversation turn the AI owes a contact (homebase/ai/, docs/ai.md); ids,
  counts and outcomes only, never a text or a prompt.
- personas: instructions, responder (at most one per workspace: a partial unique index),
  disclosure, handoff_reply, handoff_assignee, links, phone.
- contacts.ai_paused_reason: why the AI is paused (note, human_message, handoff,
  daily_limit, manual).
- messages.ai_job_id: the AI job a reply answers.
- listings.url: the listing's page, which a reply may link.

Revision ID: 0018
Revises: 0017
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ai_jobs",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=False),
        sa.Column("persona_id", sa.String(length=40), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("inbound_count", sa.Integer(), nullable=False),
        sa.Column("composed_count", sa.Integer(), nullable=False),
        sa.Column("last_inbound_id", sa.String(length=40), nullable=False),
        sa.Column("last_inbound_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", homebase.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("lease_token", sa.String(length=40), nullable=True),
        sa.Column("lease_expires_at", homebase.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(length=60), nullable=True),
        sa.Column("reply_message_id", sa.String(length=40), nullable=True),
        sa.Column("created_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_ai_jobs_workspace_id_workspaces"),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name="fk_ai_jobs_contact_id_contacts"),
        sa.ForeignKeyConstraint(["persona_id"], ["personas.id"],
                                name="fk_ai_jobs_persona_id_personas"),
        sa.PrimaryKeyConstraint("id", name="pk_ai_jobs"),
    )
    op.create_index("ix_ai_jobs_workspace_id_id", "ai_jobs", ["workspace_id", "id"])
    op.create_index("ix_ai_jobs_contact", "ai_jobs", ["workspace_id", "contact_id", "status"])
    op.create_index("ix_ai_jobs_due", "ai_jobs", ["status", "next_attempt_at"])
    open_jobs = sa.text("status IN ('queued', 'composing')")
    op.create_index("ux_ai_jobs_open_contact", "ai_jobs", ["workspace_id", "contact_id"],
                    unique=True, postgresql_where=open_jobs, sqlite_where=open_jobs)
    with op.batch_alter_table("personas") as batch:
        batch.add_column(sa.Column("instructions", sa.Text(), nullable=True))
        batch.add_column(sa.Column("responder", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("disclosure", sa.String(length=300), nullable=True))
        batch.add_column(sa.Column("handoff_reply", sa.String(length=300), nullable=True))
        batch.add_column(sa.Column("handoff_assignee", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("links", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=True))
        batch.add_column(sa.Column("phone", sa.String(length=32), nullable=True))
    op.create_index("ux_personas_workspace_responder", "personas", ["workspace_id"],
                    unique=True, postgresql_where=sa.text("responder"),
                    sqlite_where=sa.text("responder"))
    op.add_column("contacts", sa.Column("ai_paused_reason", sa.String(length=16), nullable=True))
    op.add_column("messages", sa.Column("ai_job_id", sa.String(length=40), nullable=True))
    op.add_column("listings", sa.Column("url", sa.String(length=2048), nullable=True))
    # Contacts a note paused before reasons were kept.
    op.execute("UPDATE contacts SET ai_paused_reason = 'note' WHERE ai_paused_at IS NOT NULL")


def downgrade() -> None:
    op.drop_column("listings", "url")
    op.drop_column("messages", "ai_job_id")
    op.drop_column("contacts", "ai_paused_reason")
    op.drop_index("ux_personas_workspace_responder", table_name="personas")
    with op.batch_alter_table("personas") as batch:
        for column in ("phone", "links", "handoff_assignee", "handoff_reply", "disclosure",
                       "responder", "instructions"):
            batch.drop_column(column)
    op.drop_index("ux_ai_jobs_open_contact", table_name="ai_jobs")
    op.drop_index("ix_ai_jobs_due", table_name="ai_jobs")
    op.drop_index("ix_ai_jobs_contact", table_name="ai_jobs")
    op.drop_index("ix_ai_jobs_workspace_id_id", table_name="ai_jobs")
    op.drop_table("ai_jobs")
