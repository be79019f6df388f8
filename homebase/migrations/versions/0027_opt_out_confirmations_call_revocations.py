"""Opt-out confirmations and call revocations

- messages.confirms_suppression_id: the opt-out a message confirms; a partial unique index
  keeps it to one confirmation per opt-out (docs/messaging.md, "The confirmation").
- call_revocations: numbers whose owner asked not to be called, with the text as evidence
  (one per number in a workspace).

Revision ID: 0027
Revises: 0026
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
CONFIRMS = sa.text("confirms_suppression_id IS NOT NULL")


def upgrade() -> None:
    op.add_column(
        "messages", sa.Column("confirms_suppression_id", sa.String(length=40), nullable=True)
    )
    op.create_index("ux_messages_confirms_suppression", "messages", ["confirms_suppression_id"],
                    unique=True, postgresql_where=CONFIRMS, sqlite_where=CONFIRMS)
    op.create_table(
        "call_revocations",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("address", sa.String(length=32), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=True),
        sa.Column("phrase", sa.String(length=60), nullable=False),
        sa.Column("evidence", JSON, nullable=False),
        sa.Column("created_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_call_revocations_workspace_id_workspaces"),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name="fk_call_revocations_contact_id_contacts"),
        sa.PrimaryKeyConstraint("id", name="pk_call_revocations"),
        sa.UniqueConstraint("workspace_id", "address",
                            name="uq_call_revocations_workspace_id_address"),
    )


def downgrade() -> None:
    op.drop_table("call_revocations")
    op.drop_index("ux_messages_confirms_suppression", table_name="messages")
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("confirms_suppression_id")
