"""Automation text steps that wait for a lawful minute, and the AI's text step

- automation_enrolments.step_wait_until: a text step that the lawful hours refuse waits
  (the enrolment's next_run_at is the next allowed minute) until this time at the
  latest, then runs and fails with its reason as before.
- ai_outreach.enrolment_id, ai_outreach.enrolment_step: the automation step (`ai_text`)
  that queued an AI text.

Revision ID: 0035
Revises: 0034
"""
import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0035"
down_revision = "0034"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("automation_enrolments") as batch:
        batch.add_column(
            sa.Column(
                "step_wait_until", homebase.db.types.UTCDateTime(timezone=True), nullable=True
            )
        )
    with op.batch_alter_table("ai_outreach") as batch:
        batch.add_column(sa.Column("enrolment_id", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("enrolment_step", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ai_outreach") as batch:
        batch.drop_column("enrolment_step")
        batch.drop_column("enrolment_id")
    with op.batch_alter_table("automation_enrolments") as batch:
        batch.drop_column("step_wait_until")
