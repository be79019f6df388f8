"""An import's refused rows counted by reason

- imports.refused_by_reason: {"field: message": refused rows}, summed batch by batch
  (GET /v1/imports/{id}); an import refused rows before this counts them as none.

Revision ID: 0030
Revises: 0029
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("imports") as batch:
        batch.add_column(sa.Column("refused_by_reason", JSON, nullable=False,
                                   server_default=sa.text("'{}'")))


def downgrade() -> None:
    with op.batch_alter_table("imports") as batch:
        batch.drop_column("refused_by_reason")
