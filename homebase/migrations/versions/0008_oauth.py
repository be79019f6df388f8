"""oauth: OAuth apps, grants, codes, tokens; console sessions (issue 8)

Revision ID: 0008
Revises: 0007
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass  # filled in by the issue that owns this revision


def downgrade() -> None:
    pass
