"""The workspace's National Do Not Call Registry extract

- dnc_registrations: a number (E.164) and when it was registered, loaded with the
  `dnc_registry` fixture kind; one row per workspace and number.

Revision ID: 0037
Revises: 0036
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0037"
down_revision = "0036"
branch_labels = None
depends_on = None


def _when(name: str) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "dnc_registrations",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("phone_e164", sa.String(length=32), nullable=False),
        _when("registered_at"),
        _when("loaded_at"),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name=op.f("fk_dnc_registrations_workspace_id_workspaces")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dnc_registrations")),
    )
    op.create_index("uq_dnc_registrations_phone", "dnc_registrations",
                    ["workspace_id", "phone_e164"], unique=True)
    op.create_index("ix_dnc_registrations_workspace_id_id", "dnc_registrations",
                    ["workspace_id", "id"])


def downgrade() -> None:
    op.drop_table("dnc_registrations")
