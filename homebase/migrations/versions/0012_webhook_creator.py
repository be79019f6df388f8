"""webhooks: which credential created each subscription (kind, and the app's grant)

A subscription created with an OAuth app's token lives only as long as the workspace's
grant to that app: revoking the grant ends it, and fan-out and claims check the grant
(docs/webhooks.md, "Who created a subscription"). `created_by` already held the
credential's id; `created_by_kind` says which kind it is and `grant_id` names the grant of
an app-created one. Existing rows are backfilled from the id's table. Subscriptions whose
grant is already revoked are ended now (deleted at the grant's revocation time) and their
pending deliveries cancelled: before this revision they kept receiving events.

Revision ID: 0012
Revises: 0011
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_BACKFILL = [
    """UPDATE webhook_subscriptions SET created_by_kind = 'oauth_token',
         grant_id = (SELECT oauth_tokens.grant_id FROM oauth_tokens
                     WHERE oauth_tokens.id = webhook_subscriptions.created_by)
       WHERE created_by IN (SELECT id FROM oauth_tokens)""",
    """UPDATE webhook_subscriptions SET created_by_kind = 'api_key'
       WHERE created_by IN (SELECT id FROM api_keys)""",
    """UPDATE webhook_subscriptions SET created_by_kind = 'console_member'
       WHERE created_by IN (SELECT id FROM users)""",
    """UPDATE webhook_subscriptions SET deleted_at = (
         SELECT oauth_grants.revoked_at FROM oauth_grants
         WHERE oauth_grants.id = webhook_subscriptions.grant_id)
       WHERE deleted_at IS NULL AND grant_id IN (
         SELECT id FROM oauth_grants WHERE revoked_at IS NOT NULL)""",
    # Stored times only (no CURRENT_TIMESTAMP): its text form differs per database.
    """UPDATE webhook_deliveries SET status = 'cancelled', completed_at = (
         SELECT webhook_subscriptions.deleted_at FROM webhook_subscriptions
         WHERE webhook_subscriptions.id = webhook_deliveries.subscription_id),
         next_attempt_at = NULL, lease_expires_at = NULL, lease_attempt_id = NULL
       WHERE status = 'pending' AND subscription_id IN (
         SELECT webhook_subscriptions.id FROM webhook_subscriptions
         JOIN oauth_grants ON oauth_grants.id = webhook_subscriptions.grant_id
         WHERE oauth_grants.revoked_at IS NOT NULL)""",
]


def upgrade() -> None:
    with op.batch_alter_table("webhook_subscriptions") as batch:
        batch.add_column(sa.Column("created_by_kind", sa.String(length=20), nullable=True))
        batch.add_column(sa.Column("grant_id", sa.String(length=40), nullable=True))
        batch.create_index("ix_webhook_subscriptions_grant_id", ["grant_id"], unique=False)
    for statement in _BACKFILL:
        op.execute(statement)


def downgrade() -> None:
    with op.batch_alter_table("webhook_subscriptions") as batch:
        batch.drop_index("ix_webhook_subscriptions_grant_id")
        batch.drop_column("grant_id")
        batch.drop_column("created_by_kind")
