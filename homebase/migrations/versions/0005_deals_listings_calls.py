"""deals_listings_calls: pipelines and their stages, deals, listings, calls

Revision ID: 0005
Revises: 0004
"""
from alembic import op
from typing import Any

import sqlalchemy as sa
import homebase.db.types
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def _workspace(table: str) -> tuple[sa.Column[Any], sa.ForeignKeyConstraint]:
    return (sa.Column("workspace_id", sa.String(length=40), nullable=False),
            sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                    name=op.f(f"fk_{table}_workspace_id_workspaces")))


def upgrade() -> None:
    op.create_table(
        "pipelines",
        sa.Column("id", sa.String(length=40), nullable=False),
        *_workspace("pipelines"),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pipelines")),
        sa.UniqueConstraint("workspace_id", "key", name=op.f("uq_pipelines_workspace_id_key")),
    )
    with op.batch_alter_table("pipelines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pipelines_workspace_id"), ["workspace_id"],
                              unique=False)

    op.create_table(
        "pipeline_stages",
        sa.Column("id", sa.String(length=40), nullable=False),
        *_workspace("pipeline_stages"),
        sa.Column("pipeline_id", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("probability", sa.Integer(), nullable=True),
        _when("created_at"),
        sa.ForeignKeyConstraint(["pipeline_id"], ["pipelines.id"],
                                name=op.f("fk_pipeline_stages_pipeline_id_pipelines")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pipeline_stages")),
        sa.UniqueConstraint("pipeline_id", "key",
                            name=op.f("uq_pipeline_stages_pipeline_id_key")),
    )
    with op.batch_alter_table("pipeline_stages", schema=None) as batch_op:
        batch_op.create_index("ix_pipeline_stages_workspace_pipeline",
                              ["workspace_id", "pipeline_id", "position"], unique=False)

    op.create_table(
        "deals",
        sa.Column("id", sa.String(length=40), nullable=False),
        *_workspace("deals"),
        sa.Column("pipeline_id", sa.String(length=40), nullable=False),
        sa.Column("stage_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=True),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("value_cents", sa.BigInteger(), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("expected_close_date", sa.Date(), nullable=True),
        sa.Column("owner_id", sa.String(length=40), nullable=True),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("commission_rate_bp", sa.Integer(), nullable=True),
        sa.Column("commission_cents", sa.BigInteger(), nullable=True),
        _when("stage_changed_at"),
        _when("closed_at", nullable=True),
        _when("created_at"),
        _when("updated_at"),
        sa.ForeignKeyConstraint(["pipeline_id"], ["pipelines.id"],
                                name=op.f("fk_deals_pipeline_id_pipelines")),
        sa.ForeignKeyConstraint(["stage_id"], ["pipeline_stages.id"],
                                name=op.f("fk_deals_stage_id_pipeline_stages")),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name=op.f("fk_deals_contact_id_contacts")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deals")),
    )
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.create_index("ix_deals_workspace_id_id", ["workspace_id", "id"], unique=False)
        batch_op.create_index("ix_deals_workspace_contact", ["workspace_id", "contact_id", "id"],
                              unique=False)
        batch_op.create_index("ix_deals_workspace_stage", ["workspace_id", "stage_id", "id"],
                              unique=False)

    op.create_table(
        "listings",
        sa.Column("id", sa.String(length=40), nullable=False),
        *_workspace("listings"),
        sa.Column("address", sa.String(length=200), nullable=False),
        sa.Column("unit", sa.String(length=40), nullable=True),
        sa.Column("city", sa.String(length=80), nullable=False),
        sa.Column("city_lower", sa.String(length=80), nullable=False),
        sa.Column("state", sa.String(length=40), nullable=False),
        sa.Column("zip", sa.String(length=16), nullable=False),
        sa.Column("price_cents", sa.BigInteger(), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("beds", sa.Integer(), nullable=True),
        sa.Column("baths", sa.Float(), nullable=True),
        sa.Column("square_feet", sa.Integer(), nullable=True),
        sa.Column("property_type", sa.String(length=40), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("photos", JSON, nullable=False),
        sa.Column("agent_id", sa.String(length=40), nullable=True),
        _when("created_at"),
        _when("updated_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_listings")),
    )
    with op.batch_alter_table("listings", schema=None) as batch_op:
        batch_op.create_index("ix_listings_workspace_id_id", ["workspace_id", "id"],
                              unique=False)
        batch_op.create_index("ix_listings_workspace_status", ["workspace_id", "status", "id"],
                              unique=False)

    op.create_table(
        "calls",
        sa.Column("id", sa.String(length=40), nullable=False),
        *_workspace("calls"),
        sa.Column("contact_id", sa.String(length=40), nullable=True),
        sa.Column("provider_call_id", sa.String(length=120), nullable=True),
        sa.Column("direction", sa.String(length=8), nullable=False),
        sa.Column("from_number", sa.String(length=32), nullable=True),
        sa.Column("to_number", sa.String(length=32), nullable=True),
        _when("started_at"),
        _when("ended_at", nullable=True),
        sa.Column("duration_seconds", sa.Integer(), nullable=True),
        sa.Column("handled_by", sa.String(length=8), nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=True),
        sa.Column("disposition", sa.String(length=40), nullable=True),
        sa.Column("transcript", sa.Text(), nullable=True),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("recording_key", sa.String(length=300), nullable=True),
        _when("created_at"),
        sa.ForeignKeyConstraint(["contact_id"], ["contacts.id"],
                                name=op.f("fk_calls_contact_id_contacts")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calls")),
        sa.UniqueConstraint("workspace_id", "provider_call_id",
                            name=op.f("uq_calls_workspace_id_provider_call_id")),
    )
    with op.batch_alter_table("calls", schema=None) as batch_op:
        batch_op.create_index("ix_calls_workspace_id_id", ["workspace_id", "id"], unique=False)
        batch_op.create_index("ix_calls_workspace_contact", ["workspace_id", "contact_id", "id"],
                              unique=False)


def downgrade() -> None:
    for table in ("calls", "listings", "deals", "pipeline_stages", "pipelines"):
        op.drop_table(table)
