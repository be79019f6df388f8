"""A handoff a person can act on

- personas.handoff_minutes: how long, counted inside the persona's showing hours, a
  handoff's task has before it is due (null: 15).
- tasks.priority: low, normal or high (every task so far: normal).

Revision ID: 0031
Revises: 0030
"""
import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("personas") as batch:
        batch.add_column(sa.Column("handoff_minutes", sa.Integer(), nullable=True))
    with op.batch_alter_table("tasks") as batch:
        batch.add_column(
            sa.Column("priority", sa.String(length=16), nullable=False, server_default="normal")
        )


def downgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("priority")
    with op.batch_alter_table("personas") as batch:
        batch.drop_column("handoff_minutes")
