"""appointments_calendars: appointments and member calendars (issue 7)

Revision ID: 0006
Revises: 0005
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass  # filled in by the issue that owns this revision


def downgrade() -> None:
    pass
