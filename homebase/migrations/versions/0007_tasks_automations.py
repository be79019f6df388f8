"""tasks_automations: tasks, automations, personas, campaigns, enrolments

Revision ID: 0007
Revises: 0006
"""
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import homebase.db.types

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
ACTIVE = sa.text("status = 'active'")


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def _id() -> sa.Column[Any]:
    return sa.Column("id", sa.String(length=40), nullable=False)


def _workspace(table: str) -> tuple[sa.Column[Any], sa.ForeignKeyConstraint]:
    return (sa.Column("workspace_id", sa.String(length=40), nullable=False),
            sa.ForeignKeyConstraint(["workspace_id"], ["workspaces.id"],
                                    name=op.f(f"fk_{table}_workspace_id_workspaces")))


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=op.f(f"fk_{table}_{column}_{target}"))


def upgrade() -> None:
    op.create_table(
        "tasks", _id(), *_workspace("tasks"),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=True),
        sa.Column("assignee_id", sa.String(length=40), nullable=True),
        _when("due_at", nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("notes", sa.Text(), nullable=True),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("dedupe_key", sa.String(length=64), nullable=False),
        _when("created_at"), _when("updated_at"),
        _fk("tasks", "contact_id", "contacts"), _fk("tasks", "assignee_id", "users"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tasks")),
    )
    op.create_index("ix_tasks_workspace_id_id", "tasks", ["workspace_id", "id"])
    op.create_index("ix_tasks_contact", "tasks", ["workspace_id", "contact_id", "id"])
    op.create_index("ix_tasks_assignee", "tasks", ["workspace_id", "assignee_id", "id"])

    op.create_table(
        "task_dedupe", *_workspace("task_dedupe"),
        sa.Column("dedupe_key", sa.String(length=64), nullable=False),
        sa.Column("task_id", sa.String(length=40), nullable=False),
        _when("expires_at"),
        sa.PrimaryKeyConstraint("workspace_id", "dedupe_key", name=op.f("pk_task_dedupe")),
    )
    op.create_index("ix_task_dedupe_expires_at", "task_dedupe", ["expires_at"])

    op.create_table(
        "personas", _id(), *_workspace("personas"),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("tone", sa.String(length=200), nullable=False),
        sa.Column("channels", JSON, nullable=False),
        sa.Column("signature", sa.String(length=300), nullable=True),
        _when("created_at"), _when("updated_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_personas")),
    )
    op.create_index("ix_personas_workspace_id_id", "personas", ["workspace_id", "id"])

    op.create_table(
        "automations", _id(), *_workspace("automations"),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("description", sa.String(length=500), nullable=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("steps", JSON, nullable=False),
        _when("created_at"), _when("updated_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_automations")),
    )
    op.create_index("ix_automations_workspace_id_id", "automations", ["workspace_id", "id"])

    op.create_table(
        "campaigns", _id(), *_workspace("campaigns"),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("persona_id", sa.String(length=40), nullable=True),
        sa.Column("automation_id", sa.String(length=40), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("audience", sa.String(length=500), nullable=True),
        _when("created_at"), _when("updated_at"),
        _fk("campaigns", "persona_id", "personas"),
        _fk("campaigns", "automation_id", "automations"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_campaigns")),
    )
    op.create_index("ix_campaigns_workspace_id_id", "campaigns", ["workspace_id", "id"])

    op.create_table(
        "automation_enrolments", _id(), *_workspace("automation_enrolments"),
        sa.Column("automation_id", sa.String(length=40), nullable=False),
        sa.Column("contact_id", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("step_index", sa.Integer(), nullable=False),
        _when("next_run_at", nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("actor", sa.String(length=60), nullable=True),
        _when("finished_at", nullable=True), _when("created_at"), _when("updated_at"),
        _fk("automation_enrolments", "automation_id", "automations"),
        _fk("automation_enrolments", "contact_id", "contacts"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_automation_enrolments")),
    )
    op.create_index("ix_automation_enrolments_workspace_id_id", "automation_enrolments",
                    ["workspace_id", "id"])
    op.create_index("ix_automation_enrolments_automation", "automation_enrolments",
                    ["workspace_id", "automation_id", "id"])
    op.create_index("ix_automation_enrolments_due", "automation_enrolments",
                    ["status", "next_run_at"])
    op.create_index("uq_automation_enrolments_active", "automation_enrolments",
                    ["workspace_id", "automation_id", "contact_id"], unique=True,
                    sqlite_where=ACTIVE, postgresql_where=ACTIVE)

    op.create_table(
        "automation_step_runs", _id(), *_workspace("automation_step_runs"),
        sa.Column("enrolment_id", sa.String(length=40), nullable=False),
        sa.Column("step_index", sa.Integer(), nullable=False),
        sa.Column("step_type", sa.String(length=20), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.String(length=500), nullable=True),
        sa.Column("message_id", sa.String(length=40), nullable=True),
        sa.Column("task_id", sa.String(length=40), nullable=True),
        _when("created_at"),
        _fk("automation_step_runs", "enrolment_id", "automation_enrolments"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_automation_step_runs")),
        sa.UniqueConstraint("enrolment_id", "step_index",
                            name=op.f("uq_automation_step_runs_enrolment_id_step_index")),
    )
    op.create_index("ix_automation_step_runs_workspace_id_id", "automation_step_runs",
                    ["workspace_id", "id"])


def downgrade() -> None:
    for table in ("automation_step_runs", "automation_enrolments", "campaigns", "automations",
                  "personas", "task_dedupe", "tasks"):
        op.drop_table(table)
