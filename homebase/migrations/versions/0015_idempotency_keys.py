"""idempotency_keys: the Idempotency-Key of every POST under /v1, per credential

One row per (workspace, credential kind, credential id, sha256 of the key): the primary
key is the atomic claim, a lease bounds how long a crashed request holds it, and the
sealed response is replayed until expires_at (HOMEBASE_IDEMPOTENCY_TTL_HOURS).
See homebase/idempotency/ and docs/decisions.md "Idempotency keys".

Revision ID: 0015
Revises: 0014
"""
import sqlalchemy as sa
from alembic import op

revision = "0015"
# The lead relinks the chain at merge time; 0012 is this branch's head.
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("credential_kind", sa.String(length=20), nullable=False),
        sa.Column("credential_id", sa.String(length=40), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("owner", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("response_status", sa.Integer(), nullable=True),
        sa.Column("response_body", sa.Text(), nullable=True),
        sa.Column("contact_ids", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_idempotency_keys_workspace_id_workspaces"),
        sa.PrimaryKeyConstraint("workspace_id", "credential_kind", "credential_id",
                                "key_hash", name="pk_idempotency_keys"),
    )
    op.create_index("ix_idempotency_keys_expires_at", "idempotency_keys", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_expires_at", table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
