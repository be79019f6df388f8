"""The AI's call after its first text

- personas.call_after_text_minutes: with first_touch text_then_call, how long after the
  AI's first text without an answer it calls (null: 10).
- ai_outreach.voice_call_id: the AI call a `call` row placed.

Revision ID: 0040
Revises: 0039
"""
import sqlalchemy as sa
from alembic import op

revision = "0040"
down_revision = "0039"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("personas") as batch:
        batch.add_column(sa.Column("call_after_text_minutes", sa.Integer(), nullable=True))
    with op.batch_alter_table("ai_outreach") as batch:
        batch.add_column(sa.Column("voice_call_id", sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ai_outreach") as batch:
        batch.drop_column("voice_call_id")
    with op.batch_alter_table("personas") as batch:
        batch.drop_column("call_after_text_minutes")
