"""console: console sign-in sessions and the OAuth apps each workspace registered

Revision ID: 0009
Revises: 0008
"""
from alembic import op
from typing import Any

import sqlalchemy as sa
import homebase.db.types

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "console_sessions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        _when("created_at"),
        _when("last_seen_at"),
        _when("expires_at"),
        _when("revoked_at", nullable=True),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name=op.f("fk_console_sessions_workspace_id_workspaces")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_console_sessions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_console_sessions_token_hash")),
    )
    with op.batch_alter_table("console_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_console_sessions_workspace_id"), ["workspace_id"],
                              unique=False)
        batch_op.create_index(batch_op.f("ix_console_sessions_user_id"), ["user_id"],
                              unique=False)

    op.create_table(
        "console_oauth_apps",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("client_id", sa.String(length=40), nullable=False),
        sa.Column("registered_by", sa.String(length=40), nullable=False),
        _when("created_at"),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name=op.f("fk_console_oauth_apps_workspace_id_workspaces")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_oauth_apps")),
        sa.UniqueConstraint("client_id", name=op.f("uq_console_oauth_apps_client_id")),
    )
    with op.batch_alter_table("console_oauth_apps", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_console_oauth_apps_workspace_id"),
                              ["workspace_id"], unique=False)


def downgrade() -> None:
    op.drop_table("console_oauth_apps")
    op.drop_table("console_sessions")
