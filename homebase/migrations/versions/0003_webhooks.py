"""webhooks: subscriptions, deliveries (leased), attempts (the delivery log)

Revision ID: 0003
Revises: 0002
"""
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _time(name: str, nullable: bool = True) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def _workspace_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                   name=op.f(f"fk_{table}_workspace_id_workspaces"))


def upgrade() -> None:
    op.create_table(
        "webhook_subscriptions",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("event_types", JSON, nullable=False),
        sa.Column("secret_encrypted", sa.Text(), nullable=False),
        sa.Column("secret_hint", sa.String(length=16), nullable=False),
        sa.Column("scopes", JSON, nullable=False),
        sa.Column("created_by", sa.String(length=60), nullable=True),
        _time("created_at", nullable=False),
        _time("deleted_at"),
        _workspace_fk("webhook_subscriptions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_subscriptions")),
    )
    with op.batch_alter_table("webhook_subscriptions") as batch:
        batch.create_index("ix_webhook_subscriptions_workspace_id_id", ["workspace_id", "id"])

    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("subscription_id", sa.String(length=40), nullable=False),
        sa.Column("event_id", sa.String(length=40), nullable=False),
        sa.Column("event_type", sa.String(length=60), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("total_attempts", sa.Integer(), nullable=False),
        _time("next_attempt_at"),
        _time("lease_expires_at"),
        sa.Column("lease_attempt_id", sa.String(length=40), nullable=True),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        _time("created_at", nullable=False),
        _time("completed_at"),
        _workspace_fk("webhook_deliveries"),
        sa.ForeignKeyConstraint(["subscription_id"], ["webhook_subscriptions.id"],
                                name=op.f("fk_webhook_deliveries_subscription_id_"
                                          "webhook_subscriptions")),
        sa.ForeignKeyConstraint(["event_id"], ["outbox_events.id"],
                                name=op.f("fk_webhook_deliveries_event_id_outbox_events")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
        sa.UniqueConstraint("subscription_id", "event_id",
                            name=op.f("uq_webhook_deliveries_subscription_id_event_id")),
    )
    with op.batch_alter_table("webhook_deliveries") as batch:
        batch.create_index("ix_webhook_deliveries_due", ["status", "next_attempt_at"])
        batch.create_index("ix_webhook_deliveries_lease", ["lease_expires_at"])
        batch.create_index("ix_webhook_deliveries_subscription",
                           ["workspace_id", "subscription_id", "id"])

    op.create_table(
        "webhook_attempts",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("delivery_id", sa.String(length=40), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("latency_ms", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("worker", sa.String(length=80), nullable=True),
        _time("started_at", nullable=False),
        _time("finished_at"),
        _workspace_fk("webhook_attempts"),
        sa.ForeignKeyConstraint(["delivery_id"], ["webhook_deliveries.id"],
                                name=op.f("fk_webhook_attempts_delivery_id_webhook_deliveries")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_attempts")),
    )
    with op.batch_alter_table("webhook_attempts") as batch:
        batch.create_index("ix_webhook_attempts_delivery", ["workspace_id", "delivery_id", "id"])


def downgrade() -> None:
    op.drop_table("webhook_attempts")
    op.drop_table("webhook_deliveries")
    op.drop_table("webhook_subscriptions")
