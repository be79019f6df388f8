"""The console's inbox and member invitations

- conversation_reads: how far each member has read each contact's conversation.
- member_invitations: a member's invitation of someone to the workspace, its link's
  token stored as a SHA-256, valid once until expires_at.

Revision ID: 0033
Revises: 0032
"""
from typing import Any

import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0033"
down_revision = "0032"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "conversation_reads",
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("member_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=False),
        sa.Column("read_through_id", sa.String(length=40), nullable=False),
        _when("read_at"),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name=op.f("fk_conversation_reads_workspace_id_workspaces")),
        sa.ForeignKeyConstraint(["member_id"], ["users.id"],
                                name=op.f("fk_conversation_reads_member_id_users")),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name=op.f("fk_conversation_reads_contact_id_contacts")),
        sa.PrimaryKeyConstraint("member_id", "contact_id", name=op.f("pk_conversation_reads")),
    )
    op.create_index("ix_conversation_reads_contact", "conversation_reads",
                    ["workspace_id", "contact_id"])

    op.create_table(
        "member_invitations",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("invited_by", sa.String(length=40), nullable=False),
        _when("created_at"),
        _when("expires_at"),
        _when("used_at", nullable=True),
        sa.Column("user_id", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name=op.f("fk_member_invitations_workspace_id_workspaces")),
        sa.ForeignKeyConstraint(["invited_by"], ["users.id"],
                                name=op.f("fk_member_invitations_invited_by_users")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_member_invitations_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_invitations")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_member_invitations_token_hash")),
    )
    op.create_index("ix_member_invitations_workspace_id", "member_invitations",
                    ["workspace_id", "id"])


def downgrade() -> None:
    op.drop_table("member_invitations")
    op.drop_table("conversation_reads")
