"""The AI's actions: what a persona may do, and the log of what it did

- personas.actions: the tools the AI may call as this persona (null: none, as before);
  personas.showing_hours / showing_minutes: when showings may be booked;
  personas.qualification_fields: the contact custom fields set_qualification may write;
  personas.tags: the only tags add_tags may add.
- ai_actions: what an AI job performed (ids and outcomes only), so a job composed again
  never books twice.

Revision ID: 0029
Revises: 0028
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("personas") as batch:
        batch.add_column(sa.Column("actions", JSON, nullable=True))
        batch.add_column(sa.Column("showing_hours", JSON, nullable=True))
        batch.add_column(sa.Column("showing_minutes", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("qualification_fields", JSON, nullable=True))
        batch.add_column(sa.Column("tags", JSON, nullable=True))
    op.create_table(
        "ai_actions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("ai_job_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=False),
        sa.Column("tool", sa.String(length=40), nullable=False),
        sa.Column("outcome", sa.String(length=40), nullable=False),
        sa.Column("object_id", sa.String(length=40), nullable=True),
        sa.Column("created_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_ai_actions_workspace_id_workspaces"),
        sa.ForeignKeyConstraint(["ai_job_id"], ["ai_jobs.id"],
                                name="fk_ai_actions_ai_job_id_ai_jobs"),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name="fk_ai_actions_contact_id_contacts"),
        sa.PrimaryKeyConstraint("id", name="pk_ai_actions"),
    )
    op.create_index("ix_ai_actions_contact", "ai_actions", ["workspace_id", "contact_id", "id"])
    op.create_index("ix_ai_actions_job", "ai_actions", ["workspace_id", "ai_job_id"])


def downgrade() -> None:
    op.drop_table("ai_actions")
    with op.batch_alter_table("personas") as batch:
        for name in ("tags", "qualification_fields", "showing_minutes", "showing_hours", "actions"):
            batch.drop_column(name)
