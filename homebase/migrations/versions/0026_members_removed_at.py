"""users.removed_at: a member removed by `homebase admin remove-member`

The row stays (messages, appointments, leads and the timeline name it); a removed member
cannot sign in, is not routed to and cannot be given new work (homebase/workspaces/members.py).

Revision ID: 0026
Revises: 0025
"""
import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("removed_at", homebase.db.types.UTCDateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("removed_at")
