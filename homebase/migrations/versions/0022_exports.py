"""exports: bulk export jobs of a list, written to files for download

- exports: one job per POST /v1/exports (homebase/exports/, docs/imports-exports.md): the
  list and its filters and fields, the requester's masking decision and scopes, the
  worker's lease, the file once written (relative to HOMEBASE_STORAGE_DIR), the row count
  and the times it was made, finished and expires.

Revision ID: 0022
Revises: 0021
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
    time = homebase.db.types.UTCDateTime(timezone=True)
    op.create_table(
        "exports",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("object", sa.String(length=16), nullable=False),
        sa.Column("format", sa.String(length=8), nullable=False),
        sa.Column("filters", json, nullable=False),
        sa.Column("fields", sa.String(length=1000), nullable=True),
        sa.Column("pii", sa.Boolean(), nullable=False),
        sa.Column("scopes", json, nullable=False),
        sa.Column("requested_by", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=300), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_token", sa.String(length=40), nullable=True),
        sa.Column("lease_expires_at", time, nullable=True),
        sa.Column("created_at", time, nullable=False),
        sa.Column("started_at", time, nullable=True),
        sa.Column("finished_at", time, nullable=True),
        sa.Column("expires_at", time, nullable=True),
        sa.Column("updated_at", time, nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_exports_workspace_id_workspaces"),
        sa.PrimaryKeyConstraint("id", name="pk_exports"),
    )
    op.create_index("ix_exports_workspace_id_id", "exports", ["workspace_id", "id"])
    op.create_index("ix_exports_status", "exports", ["status", "lease_expires_at"])


def downgrade() -> None:
    op.drop_index("ix_exports_status", table_name="exports")
    op.drop_index("ix_exports_workspace_id_id", table_name="exports")
    op.drop_table("exports")
