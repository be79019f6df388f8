"""webhook_subscriptions: the failure streak, and disabling

- failing_since: the first failed attempt since the subscription's last success (or its
  creation, or its re-enabling); a success clears it.
- disabled_at, disabled_reason: set when every attempt has failed for
  HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS (`failing`), or when a client or member pauses it
  (`paused`); fan-out queues nothing for a disabled subscription. PATCH /v1/webhooks/{id}
  with status "active" clears all three (docs/webhooks.md, "Subscriptions that keep
  failing").

Existing subscriptions start active with no streak. Nullable columns only, so no table
is rebuilt.

Revision ID: 0025
Revises: 0024
"""
import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    time = homebase.db.types.UTCDateTime(timezone=True)
    op.add_column("webhook_subscriptions", sa.Column("failing_since", time, nullable=True))
    op.add_column("webhook_subscriptions", sa.Column("disabled_at", time, nullable=True))
    op.add_column("webhook_subscriptions",
                  sa.Column("disabled_reason", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("webhook_subscriptions") as batch:
        batch.drop_column("disabled_reason")
        batch.drop_column("disabled_at")
        batch.drop_column("failing_since")
