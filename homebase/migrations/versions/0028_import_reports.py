"""Imports that report what they did to each row

- imports.warnings_count: rows written with a value left out (on_invalid_cell "skip").
- imports.unmatchable_count: rows that carried none of match_on's keys.
- imports.dry_run: an import that counts and writes no record; the one-running-import
  index leaves dry runs out, so a dry run never takes the workspace's slot.
- import_errors.line (the CSV line a row starts on) and kind (refused or warning).

Revision ID: 0028
Revises: 0027
"""
import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

RUNNING = sa.text("status = 'running'")
RUNNING_REAL = sa.text("status = 'running' AND NOT dry_run")


def upgrade() -> None:
    with op.batch_alter_table("imports") as batch:
        batch.add_column(sa.Column("warnings_count", sa.Integer(), nullable=False,
                                   server_default=sa.text("0")))
        batch.add_column(sa.Column("unmatchable_count", sa.Integer(), nullable=False,
                                   server_default=sa.text("0")))
        batch.add_column(sa.Column("dry_run", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.drop_index("ux_imports_running_workspace", table_name="imports")
    op.create_index("ux_imports_running_workspace", "imports", ["workspace_id"], unique=True,
                    postgresql_where=RUNNING_REAL, sqlite_where=RUNNING_REAL)
    with op.batch_alter_table("import_errors") as batch:
        batch.add_column(sa.Column("line", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("kind", sa.String(length=16), nullable=False,
                                   server_default="refused"))


def downgrade() -> None:
    with op.batch_alter_table("import_errors") as batch:
        batch.drop_column("kind")
        batch.drop_column("line")
    op.drop_index("ux_imports_running_workspace", table_name="imports")
    op.execute("DELETE FROM imports WHERE dry_run")
    op.create_index("ux_imports_running_workspace", "imports", ["workspace_id"], unique=True,
                    postgresql_where=RUNNING, sqlite_where=RUNNING)
    with op.batch_alter_table("imports") as batch:
        batch.drop_column("dry_run")
        batch.drop_column("unmatchable_count")
        batch.drop_column("warnings_count")
