"""messaging: messages (outbound, inbound, refused) and suppressions (opt-outs)

Revision ID: 0004
Revises: 0003
"""
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _time(name: str, nullable: bool = True) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def _workspace_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                   name=op.f(f"fk_{table}_workspace_id_workspaces"))


def upgrade() -> None:
    op.create_table(
        "messages",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=True),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("direction", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("from_address", sa.String(length=254), nullable=True),
        sa.Column("to_address", sa.String(length=254), nullable=True),
        sa.Column("counterpart", sa.String(length=254), nullable=True),
        sa.Column("subject", sa.String(length=998), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("ai_generated", sa.Boolean(), nullable=False),
        sa.Column("proactive", sa.Boolean(), nullable=True),
        sa.Column("blocked_reason", sa.String(length=40), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("provider", sa.String(length=40), nullable=True),
        sa.Column("provider_message_id", sa.String(length=120), nullable=True),
        sa.Column("provider_status", sa.String(length=40), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_token", sa.String(length=40), nullable=True),
        _time("lease_expires_at"),
        sa.Column("actor", sa.String(length=60), nullable=True),
        _time("created_at", nullable=False),
        _time("updated_at", nullable=False),
        _time("sent_at"),
        _time("delivered_at"),
        _time("failed_at"),
        _time("received_at"),
        _workspace_fk("messages"),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name=op.f("fk_messages_contact_id_contacts")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_messages")),
    )
    with op.batch_alter_table("messages") as batch:
        batch.create_index("ix_messages_workspace_id_id", ["workspace_id", "id"])
        batch.create_index("ix_messages_contact", ["workspace_id", "contact_id", "id"])
        batch.create_index("ix_messages_counterpart",
                           ["workspace_id", "counterpart", "direction", "created_at"])
        batch.create_index("ix_messages_due", ["status", "lease_expires_at"])
        batch.create_index("ix_messages_provider_id", ["provider_message_id"])

    op.create_table(
        "suppressions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("reason", sa.String(length=40), nullable=False),
        sa.Column("evidence", JSON, nullable=False),
        _time("created_at", nullable=False),
        _time("lifted_at"),
        sa.Column("lifted_evidence", JSON, nullable=True),
        _workspace_fk("suppressions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suppressions")),
    )
    with op.batch_alter_table("suppressions") as batch:
        batch.create_index("ix_suppressions_address", ["workspace_id", "address", "lifted_at"])


def downgrade() -> None:
    op.drop_table("suppressions")
    op.drop_table("messages")
