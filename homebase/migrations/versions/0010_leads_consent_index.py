"""leads: consent index on (workspace_id, phone_e164, consent_expires_at)

Consent captured for a number covers the earlier leads of that number whose consent is
missing or expires sooner (leads/repository.py attach_consent). With only
(workspace_id, phone_e164) that UPDATE read every lead of the number to compare
consent_expires_at, so each lead with consent cost more than the one before; with the
expiry in the index it seeks the leads that need the update and touches nothing else.
The new index starts with the old one's columns and serves every query it served, so
ix_leads_phone goes (one index less to write per lead).

Revision ID: 0010
Revises: 0009
"""
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_leads_phone_consent", "leads",
                    ["workspace_id", "phone_e164", "consent_expires_at"], unique=False)
    op.drop_index("ix_leads_phone", table_name="leads")


def downgrade() -> None:
    op.create_index("ix_leads_phone", "leads", ["workspace_id", "phone_e164"], unique=False)
    op.drop_index("ix_leads_phone_consent", table_name="leads")
