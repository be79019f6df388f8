"""tasks_automations: tasks, automations, personas, campaigns, enrolments (issue 7)

Revision ID: 0007
Revises: 0006
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass  # filled in by the issue that owns this revision


def downgrade() -> None:
    pass
