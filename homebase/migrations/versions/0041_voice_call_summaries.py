"""AI calls' summaries written by the model: what the record written later needs

- voice_calls.end_status: the provider's terminal status (completed, busy, ...).
- voice_calls.duration_seconds: the provider's CallDuration.

A call that ended after a conversation waits as `summarizing` for the worker to ask the
model for its summary; these keep what the status callback said until the record is
written.

Revision ID: 0041
Revises: 0040
"""
import sqlalchemy as sa
from alembic import op

revision = "0041"
down_revision = "0040"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("voice_calls") as batch:
        batch.add_column(sa.Column("end_status", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("duration_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("voice_calls") as batch:
        batch.drop_column("duration_seconds")
        batch.drop_column("end_status")
