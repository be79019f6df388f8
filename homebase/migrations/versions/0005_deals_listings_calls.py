"""deals_listings_calls (placeholder: filled in by that area)

Revision ID: 0005
Revises: 0004
"""

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
