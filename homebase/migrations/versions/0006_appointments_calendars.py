"""appointments_calendars: appointments, member calendars and calendar pushes

Revision ID: 0006
Revises: 0005
"""
from typing import Any

import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def _id(name: str = "id", nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.String(length=40), nullable=nullable)


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=op.f(f"fk_{table}_{column}_{target}"))


def upgrade() -> None:
    op.create_table(
        "appointments",
        _id(), _id("workspace_id"), _id("contact_id"),
        _id("created_by", nullable=True), _id("assignee_id", nullable=True),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("location", sa.String(length=300), nullable=True),
        sa.Column("notes", sa.Text(), nullable=True),
        _when("starts_at"), _when("ends_at"),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        _when("outcome_recorded_at", nullable=True),
        _when("created_at"), _when("updated_at"),
        _fk("appointments", "workspace_id", "workspaces"),
        _fk("appointments", "contact_id", "contacts"),
        _fk("appointments", "created_by", "users"),
        _fk("appointments", "assignee_id", "users"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appointments")),
    )
    with op.batch_alter_table("appointments", schema=None) as batch_op:
        batch_op.create_index("ix_appointments_workspace_id_id", ["workspace_id", "id"])
        batch_op.create_index("ix_appointments_contact", ["workspace_id", "contact_id", "id"])
        batch_op.create_index("ix_appointments_starts", ["workspace_id", "starts_at"])

    op.create_table(
        "member_calendars",
        _id(), _id("workspace_id"), _id("user_id"),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("credentials_sealed", sa.Text(), nullable=False),
        _when("created_at"), _when("updated_at"),
        _fk("member_calendars", "workspace_id", "workspaces"),
        _fk("member_calendars", "user_id", "users"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_calendars")),
        sa.UniqueConstraint("workspace_id", "user_id",
                            name=op.f("uq_member_calendars_workspace_id_user_id")),
    )

    op.create_table(
        "calendar_pushes",
        _id(), _id("workspace_id"), _id("appointment_id"), _id("calendar_id"),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _when("next_attempt_at", nullable=True),
        sa.Column("lease_token", sa.String(length=40), nullable=True),
        _when("lease_expires_at", nullable=True),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        _when("created_at"), _when("updated_at"), _when("completed_at", nullable=True),
        _fk("calendar_pushes", "workspace_id", "workspaces"),
        _fk("calendar_pushes", "appointment_id", "appointments"),
        _fk("calendar_pushes", "calendar_id", "member_calendars"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calendar_pushes")),
        sa.UniqueConstraint("appointment_id", name=op.f("uq_calendar_pushes_appointment_id")),
    )
    with op.batch_alter_table("calendar_pushes", schema=None) as batch_op:
        batch_op.create_index("ix_calendar_pushes_due", ["status", "next_attempt_at"])


def downgrade() -> None:
    for table in ("calendar_pushes", "member_calendars", "appointments"):
        op.drop_table(table)
