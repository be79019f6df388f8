"""AI phone calls: who may be called, as whom, from which number, transferred to whom

- consent_artifacts.ai_voice: the person agreed to calls in an artificial (AI) voice.
- personas.voice, voicemail, voicemail_text: the persona places and answers calls, and
  what it does on an answering machine.
- sender_numbers.voice: the number places and answers calls.
- users.phone: a member's own phone (E.164), the warm transfer's target.

Revision ID: 0038
Revises: 0037
"""
import sqlalchemy as sa
from alembic import op

revision = "0038"
down_revision = "0037"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("consent_artifacts") as batch:
        batch.add_column(sa.Column("ai_voice", sa.Boolean(), nullable=True))
    with op.batch_alter_table("personas") as batch:
        batch.add_column(
            sa.Column("voice", sa.Boolean(), nullable=False, server_default=sa.text("false"))
        )
        batch.add_column(sa.Column("voicemail", sa.String(length=20), nullable=True))
        batch.add_column(sa.Column("voicemail_text", sa.String(length=500), nullable=True))
    with op.batch_alter_table("sender_numbers") as batch:
        batch.add_column(
            sa.Column("voice", sa.Boolean(), nullable=False, server_default=sa.text("false"))
        )
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("phone", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("phone")
    with op.batch_alter_table("sender_numbers") as batch:
        batch.drop_column("voice")
    with op.batch_alter_table("personas") as batch:
        batch.drop_column("voicemail_text")
        batch.drop_column("voicemail")
        batch.drop_column("voice")
    with op.batch_alter_table("consent_artifacts") as batch:
        batch.drop_column("ai_voice")
