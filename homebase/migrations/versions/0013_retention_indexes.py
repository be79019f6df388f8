"""retention: indexes that let the pruning job find old rows without a full scan

homebase/retention deletes, in small batches, what grows without bound (docs/operations.md,
"Retention"). Each kind is selected by a time column, so each gets an index on it:
finished webhook deliveries by completed_at, console sessions, OAuth codes and tokens by
expires_at (task_dedupe and outbox_events have theirs already). Deleting a delivery
deletes its attempts by delivery_id, and an event may go only once no delivery names it:
both need an index led by that column, which PostgreSQL's foreign-key checks on the
deletes use too (without one, each deleted row scans the child table).

Revision ID: 0013
Revises: 0012
"""
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

INDEXES = [
    ("ix_webhook_deliveries_completed_at", "webhook_deliveries", ["completed_at"]),
    ("ix_webhook_deliveries_event_id", "webhook_deliveries", ["event_id"]),
    ("ix_webhook_attempts_delivery_id", "webhook_attempts", ["delivery_id"]),
    ("ix_console_sessions_expires_at", "console_sessions", ["expires_at"]),
    ("ix_oauth_codes_expires_at", "oauth_codes", ["expires_at"]),
    ("ix_oauth_tokens_expires_at", "oauth_tokens", ["expires_at"]),
]


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns, unique=False)


def downgrade() -> None:
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
