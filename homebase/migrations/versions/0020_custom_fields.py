"""custom fields of contacts and deals

- custom_fields: a workspace's field definitions (object, key, label, type, choices);
  a deleted one keeps its row, marked deleted_at, until the worker has removed its
  values. Keys are unique per workspace and object among live fields (a partial unique
  index), so a deleted field's key is free at once.
- custom_field_values: one typed row per value (per choice for multi_select), for the
  lists' `custom.<key>=` filters: its primary key (field_id, value_key, record_id) walks
  a filter's page in keyset order on both databases (field ids are unique across
  workspaces); (workspace_id, object, record_id) finds a record's values.
- contacts.custom_fields, deals.custom_fields: the values keyed by field id, as the
  responses render them, written with the rows above in one transaction.

No statement per field: a new field is a row.

Revision ID: 0020
Revises: 0019
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
LIVE = sa.text("deleted_at IS NULL")


def upgrade() -> None:
    op.create_table(
        "custom_fields",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("object", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("label", sa.String(length=80), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("choices", JSON, nullable=True),
        sa.Column("created_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", homebase.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", homebase.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_custom_fields_workspace_id_workspaces"),
        sa.PrimaryKeyConstraint("id", name="pk_custom_fields"),
    )
    op.create_index("ix_custom_fields_workspace_object", "custom_fields",
                    ["workspace_id", "object", "id"])
    op.create_index("ux_custom_fields_live_key", "custom_fields",
                    ["workspace_id", "object", "key"], unique=True,
                    postgresql_where=LIVE, sqlite_where=LIVE)
    op.create_index("ix_custom_fields_deleted", "custom_fields", ["deleted_at"])
    op.create_table(
        "custom_field_values",
        sa.Column("field_id", sa.String(length=40), nullable=False),
        sa.Column("value_key", sa.String(length=255), nullable=False),
        sa.Column("record_id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("object", sa.String(length=16), nullable=False),
        sa.Column("value_number", sa.Float(), nullable=True),
        sa.Column("value_date", sa.Date(), nullable=True),
        sa.Column("value_boolean", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(["field_id"], ["custom_fields.id"],
                                name="fk_custom_field_values_field_id_custom_fields"),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                name="fk_custom_field_values_workspace_id_workspaces"),
        # The filters' index too: one field's and value's rows in record order.
        sa.PrimaryKeyConstraint("field_id", "value_key", "record_id",
                                name="pk_custom_field_values"),
    )
    op.create_index("ix_custom_field_values_record", "custom_field_values",
                    ["workspace_id", "object", "record_id"])
    # ADD COLUMN, not a batch (which rebuilds the table on SQLite, and with it would drop
    # the triggers that keep contact_tags in step: migration 0017).
    op.add_column("contacts", sa.Column("custom_fields", JSON, nullable=True))
    op.add_column("deals", sa.Column("custom_fields", JSON, nullable=True))


def downgrade() -> None:
    op.drop_column("deals", "custom_fields")
    op.drop_column("contacts", "custom_fields")
    op.drop_table("custom_field_values")
    op.drop_table("custom_fields")
