"""Bulk imports: the job and the rows it refused

- imports: one POST /v1/imports (homebase/imports/): the rows waiting (payload, emptied
  when the import finishes), the position reached, the counts, the lease of the worker
  running it, the requester's credential and scopes. At most one running import per
  workspace (a partial unique index).
- import_errors: each refused row's index and its {field, message} items, never a value.

Revision ID: 0023
Revises: 0022
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "imports",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("object", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("payload", JSON, nullable=True),
        sa.Column("row_count", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("created_count", sa.Integer(), nullable=False),
        sa.Column("updated_count", sa.Integer(), nullable=False),
        sa.Column("unchanged_count", sa.Integer(), nullable=False),
        sa.Column("failed_count", sa.Integer(), nullable=False),
        sa.Column("credential_kind", sa.String(length=20), nullable=False),
        sa.Column("credential_id", sa.String(length=40), nullable=False),
        sa.Column("scopes", JSON, nullable=False),
        sa.Column("lease_token", sa.String(length=40), nullable=True),
        sa.Column("lease_expires_at", homebase.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.String(length=300), nullable=True),
        sa.Column("created_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("started_at", homebase.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("finished_at", homebase.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("updated_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_imports_workspace_id_workspaces"),
        sa.PrimaryKeyConstraint("id", name="pk_imports"),
    )
    op.create_index("ix_imports_workspace_id_id", "imports", ["workspace_id", "id"])
    op.create_index("ix_imports_status_id", "imports", ["status", "id"])
    op.create_index("ix_imports_finished_at", "imports", ["finished_at"])
    running = sa.text("status = 'running'")
    op.create_index("ux_imports_running_workspace", "imports", ["workspace_id"], unique=True,
                    postgresql_where=running, sqlite_where=running)
    op.create_table(
        "import_errors",
        sa.Column("id", sa.String(length=48), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("import_id", sa.String(length=40), nullable=False),
        sa.Column("row_index", sa.Integer(), nullable=False),
        sa.Column("errors", JSON, nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_import_errors_workspace_id_workspaces"),
        sa.ForeignKeyConstraint(["import_id"], ["imports.id"],
                                name="fk_import_errors_import_id_imports"),
        sa.PrimaryKeyConstraint("id", name="pk_import_errors"),
    )
    op.create_index("ix_import_errors_workspace_import_id", "import_errors",
                    ["workspace_id", "import_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_import_errors_workspace_import_id", table_name="import_errors")
    op.drop_table("import_errors")
    op.drop_index("ux_imports_running_workspace", table_name="imports")
    op.drop_index("ix_imports_finished_at", table_name="imports")
    op.drop_index("ix_imports_status_id", table_name="imports")
    op.drop_index("ix_imports_workspace_id_id", table_name="imports")
    op.drop_table("imports")
