"""The languages a responder answers in

- personas.languages: the ISO 639-1 codes the AI answers in (null: en and es).
- personas.translations: the persona's disclosure, handoff_reply, signature and opt-out
  confirmation per language (null: none).

Revision ID: 0032
Revises: 0031
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0032"
down_revision = "0031"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("personas") as batch:
        batch.add_column(sa.Column("languages", JSON, nullable=True))
        batch.add_column(sa.Column("translations", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("personas") as batch:
        batch.drop_column("translations")
        batch.drop_column("languages")
