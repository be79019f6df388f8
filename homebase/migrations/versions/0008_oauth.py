"""oauth: OAuth apps, grants, codes, tokens

Revision ID: 0008
Revises: 0007
"""
from alembic import op
from typing import Any

import sqlalchemy as sa
import homebase.db.types
from sqlalchemy.dialects import postgresql

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _when(name: str, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, homebase.db.types.UTCDateTime(timezone=True), nullable=nullable)


def _id() -> sa.Column[Any]:
    return sa.Column("id", sa.String(length=40), nullable=False)


def _fk(table: str, column: str, target: str) -> tuple[sa.Column[Any], sa.ForeignKeyConstraint]:
    return (sa.Column(column, sa.String(length=40), nullable=False),
            sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                    name=op.f(f"fk_{table}_{column}_{target}")))


def _index(table: str, *columns: str, unique: bool = False) -> None:
    op.create_index(op.f(f"ix_{table}_{'_'.join(columns)}"), table, list(columns), unique=unique)


def upgrade() -> None:
    op.create_table(
        "oauth_clients",
        _id(),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("secret_hint", sa.String(length=16), nullable=False),
        sa.Column("redirect_uris", JSON, nullable=False),
        _when("created_at"),
        _when("revoked_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_clients")),
    )
    op.create_table(
        "oauth_grants",
        _id(),
        *_fk("oauth_grants", "workspace_id", "workspaces"),
        *_fk("oauth_grants", "client_id", "oauth_clients"),
        sa.Column("scopes", JSON, nullable=False),
        sa.Column("authorized_by", sa.String(length=40), nullable=True),
        _when("created_at"),
        _when("updated_at"),
        _when("revoked_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_grants")),
        sa.UniqueConstraint("workspace_id", "client_id",
                            name=op.f("uq_oauth_grants_workspace_id_client_id")),
    )
    _index("oauth_grants", "workspace_id")
    _index("oauth_grants", "client_id")
    op.create_table(
        "oauth_codes",
        _id(),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        *_fk("oauth_codes", "client_id", "oauth_clients"),
        *_fk("oauth_codes", "grant_id", "oauth_grants"),
        *_fk("oauth_codes", "workspace_id", "workspaces"),
        sa.Column("user_id", sa.String(length=40), nullable=True),
        sa.Column("redirect_uri", sa.String(length=2000), nullable=False),
        sa.Column("code_challenge", sa.String(length=64), nullable=False),
        sa.Column("scopes", JSON, nullable=False),
        _when("created_at"),
        _when("expires_at"),
        _when("used_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_oauth_codes_code_hash")),
    )
    for column in ("client_id", "grant_id", "workspace_id"):
        _index("oauth_codes", column)
    op.create_table(
        "oauth_tokens",
        _id(),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        *_fk("oauth_tokens", "client_id", "oauth_clients"),
        *_fk("oauth_tokens", "grant_id", "oauth_grants"),
        *_fk("oauth_tokens", "workspace_id", "workspaces"),
        sa.Column("code_id", sa.String(length=40), nullable=True),
        sa.Column("scopes", JSON, nullable=False),
        _when("created_at"),
        _when("expires_at"),
        _when("retired_at", nullable=True),
        _when("revoked_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_oauth_tokens_token_hash")),
    )
    for column in ("grant_id", "workspace_id", "code_id"):
        _index("oauth_tokens", column)


def downgrade() -> None:
    for table in ("oauth_tokens", "oauth_codes", "oauth_grants", "oauth_clients"):
        op.drop_table(table)
