"""events API: an index for walking one event type in (occurred_at, id) order

GET /v1/events reads the types a credential may see, or those a `type` filter names, one
index range per type merged in (occurred_at, id) order, so a page costs what a first page
does however many events of other types the workspace holds.

Revision ID: 0021
Revises: 0020
"""
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_outbox_events_workspace_type_occurred",
        "outbox_events",
        ["workspace_id", "type", "occurred_at", "id"],
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_events_workspace_type_occurred", table_name="outbox_events")
