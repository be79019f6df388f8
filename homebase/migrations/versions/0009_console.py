"""console: console sign-in sessions (issue 8)

Revision ID: 0009
Revises: 0008
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass  # filled in by the issue that owns this revision


def downgrade() -> None:
    pass
