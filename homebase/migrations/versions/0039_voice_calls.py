"""AI phone calls: voice_calls, each call the AI places or answers, from queued to ended

Revision ID: 0039
Revises: 0038
"""
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0039"
down_revision = "0038"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _when(name: str, nullable: bool = True) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "voice_calls",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=True),
        sa.Column("persona_id", sa.String(length=40), nullable=False),
        sa.Column("ai_job_id", sa.String(length=40), nullable=True),
        sa.Column("direction", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.String(length=60), nullable=False),
        sa.Column("from_number", sa.String(length=32), nullable=True),
        sa.Column("to_number", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("provider_call_sid", sa.String(length=64), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _when("next_attempt_at"),
        sa.Column("lease_token", sa.String(length=40), nullable=True),
        _when("lease_expires_at"),
        sa.Column("answered_by", sa.String(length=24), nullable=True),
        sa.Column("transcript", JSON, nullable=True),
        sa.Column("handoff", JSON, nullable=True),
        sa.Column("disposition", sa.String(length=40), nullable=True),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.Column("call_id", sa.String(length=40), nullable=True),
        sa.Column("recording_sid", sa.String(length=64), nullable=True),
        _when("erased_at"),
        _when("started_at"),
        _when("ended_at"),
        _when("created_at", nullable=False),
        _when("updated_at", nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name=op.f("fk_voice_calls_workspace_id_workspaces")),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name=op.f("fk_voice_calls_contact_id_contacts")),
        sa.ForeignKeyConstraint(["persona_id"], ["personas.id"],
                                name=op.f("fk_voice_calls_persona_id_personas")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_voice_calls")),
    )
    op.create_index("ix_voice_calls_workspace_id_id", "voice_calls", ["workspace_id", "id"])
    op.create_index("ix_voice_calls_due", "voice_calls", ["status", "next_attempt_at"])
    op.create_index("ix_voice_calls_contact", "voice_calls",
                    ["workspace_id", "contact_id", "id"])
    op.create_index("ix_voice_calls_provider", "voice_calls", ["provider_call_sid"])


def downgrade() -> None:
    op.drop_table("voice_calls")
