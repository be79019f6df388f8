"""outbox_events: a partial index of the events not yet dispatched

The webhook fan-out takes `WHERE dispatched_at IS NULL ORDER BY id LIMIT n`. PostgreSQL's
planner does not count `IS NULL` as fixing the first column of (dispatched_at, id), so it
walked the primary key in id order and filtered out every dispatched event: each call
read every event stored (an import's events are many). An index of the undispatched
events' ids alone serves the query in order and stays as small as the backlog. SQLite answered it from (dispatched_at, id) already; the index costs it nothing.

Revision ID: 0024
Revises: 0023
"""
import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

UNDISPATCHED = sa.text("dispatched_at IS NULL")


def upgrade() -> None:
    op.create_index("ix_outbox_events_undispatched", "outbox_events", ["id"],
                    postgresql_where=UNDISPATCHED, sqlite_where=UNDISPATCHED)


def downgrade() -> None:
    op.drop_index("ix_outbox_events_undispatched", table_name="outbox_events")
