"""sync: indexes for `updated_after` lists and the events API

A list asked for what changed since a time walks (updated_at, id) ascending from it
(docs/sync.md): each synced table gets an index in that order within its workspace, so
a page at 1,000,000 rows costs what a first page does. The events API walks the stored
events by (occurred_at, id) the same way.

Revision ID: 0019
Revises: 0018
"""
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

SYNCED = ("contacts", "leads", "deals", "appointments", "tasks", "messages")


def upgrade() -> None:
    for table in SYNCED:
        op.create_index(
            f"ix_{table}_workspace_updated", table, ["workspace_id", "updated_at", "id"]
        )
    op.create_index(
        "ix_outbox_events_workspace_occurred",
        "outbox_events",
        ["workspace_id", "occurred_at", "id"],
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_events_workspace_occurred", table_name="outbox_events")
    for table in SYNCED:
        op.drop_index(f"ix_{table}_workspace_updated", table_name=table)
