"""The AI's outbound texts: a first touch for a new lead, and follow-ups

- personas.first_touch: off (null) or text; personas.first_touch_delay_seconds (null:
  30); personas.follow_ups: ISO 8601 durations (null: none); personas.follow_ups_since:
  when the persona turned follow-ups on (only the AI's texts after it count).
- ai_outreach: one text the AI owes a contact without being asked (a first touch or a
  follow-up), a leased queue row like ai_jobs: ids, times and outcomes, never a text.

Revision ID: 0034
Revises: 0033
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0034"
down_revision = "0033"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
OPEN_WHERE = "status IN ('queued', 'composing')"


def upgrade() -> None:
    with op.batch_alter_table("personas") as batch:
        batch.add_column(sa.Column("first_touch", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("first_touch_delay_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("follow_ups", JSON, nullable=True))
        batch.add_column(
            sa.Column(
                "follow_ups_since", homebase.db.types.UTCDateTime(timezone=True), nullable=True
            )
        )
    when = homebase.db.types.UTCDateTime(timezone=True)
    op.create_table(
        "ai_outreach",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=False),
        sa.Column("persona_id", sa.String(length=40), nullable=False),
        sa.Column("lead_id", sa.String(length=40), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("after_message_id", sa.String(length=40), nullable=True),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("due_at", when, nullable=False),
        sa.Column("wait_until", when, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_token", sa.String(length=40), nullable=True),
        sa.Column("lease_expires_at", when, nullable=True),
        sa.Column("outcome", sa.String(length=60), nullable=True),
        sa.Column("message_id", sa.String(length=40), nullable=True),
        sa.Column("created_at", when, nullable=False),
        sa.Column("updated_at", when, nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"], ["workspaces.id"], name="fk_ai_outreach_workspace_id_workspaces"
        ),
        sa.ForeignKeyConstraint(
            ["contact_id"], ["contacts.id"], name="fk_ai_outreach_contact_id_contacts"
        ),
        sa.ForeignKeyConstraint(
            ["persona_id"], ["personas.id"], name="fk_ai_outreach_persona_id_personas"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_ai_outreach"),
    )
    op.create_index("ix_ai_outreach_workspace_id_id", "ai_outreach", ["workspace_id", "id"])
    op.create_index(
        "ix_ai_outreach_contact", "ai_outreach", ["workspace_id", "contact_id", "status"]
    )
    op.create_index("ix_ai_outreach_due", "ai_outreach", ["status", "due_at"])
    op.create_index(
        "ix_ai_outreach_origin_due", "ai_outreach", ["workspace_id", "origin", "due_at"]
    )
    op.create_index(
        "ux_ai_outreach_open_contact",
        "ai_outreach",
        ["workspace_id", "contact_id"],
        unique=True,
        postgresql_where=sa.text(OPEN_WHERE),
        sqlite_where=sa.text(OPEN_WHERE),
    )


def downgrade() -> None:
    op.drop_table("ai_outreach")
    with op.batch_alter_table("personas") as batch:
        for name in ("follow_ups_since", "follow_ups", "first_touch_delay_seconds", "first_touch"):
            batch.drop_column(name)
