"""leads: offices, teams, routing rules and cursors, leads, consent artifacts

Revision ID: 0002
Revises: 0001
"""

from alembic import op
import sqlalchemy as sa
import homebase.db.types
from sqlalchemy.dialects import postgresql

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('consent_artifacts',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('phone', sa.String(length=32), nullable=False),
    sa.Column('phone_e164', sa.String(length=32), nullable=True),
    sa.Column('lead_id', sa.String(length=40), nullable=True),
    sa.Column('captured_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('source_url', sa.String(length=2048), nullable=True),
    sa.Column('ip', sa.String(length=64), nullable=True),
    sa.Column('form_snapshot', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=True),
    sa.Column('recorded_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('expires_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_consent_artifacts_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_consent_artifacts'))
    )
    with op.batch_alter_table('consent_artifacts', schema=None) as batch_op:
        batch_op.create_index('ix_consent_artifacts_phone', ['workspace_id', 'phone_e164', 'expires_at'], unique=False)

    op.create_table('offices',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_offices_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_offices'))
    )
    with op.batch_alter_table('offices', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_offices_workspace_id'), ['workspace_id'], unique=False)

    op.create_table('routing_rules',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('is_fallback', sa.Boolean(), nullable=False),
    sa.Column('conditions', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('method', sa.String(length=20), nullable=False),
    sa.Column('targets', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_routing_rules_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_routing_rules'))
    )
    with op.batch_alter_table('routing_rules', schema=None) as batch_op:
        batch_op.create_index('ix_routing_rules_order', ['workspace_id', 'position', 'id'], unique=False)

    op.create_table('teams',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('office_id', sa.String(length=40), nullable=True),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_teams_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_teams'))
    )
    with op.batch_alter_table('teams', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_teams_workspace_id'), ['workspace_id'], unique=False)

    op.create_table('leads',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('contact_id', sa.String(length=40), nullable=True),
    sa.Column('first_name', sa.String(length=80), nullable=True),
    sa.Column('last_name', sa.String(length=80), nullable=True),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('phone', sa.String(length=32), nullable=False),
    sa.Column('phone_e164', sa.String(length=32), nullable=True),
    sa.Column('source', sa.String(length=80), nullable=False),
    sa.Column('source_ref', sa.String(length=120), nullable=True),
    sa.Column('context', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('consent_id', sa.String(length=40), nullable=True),
    sa.Column('consent_expires_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.Column('routing_status', sa.String(length=16), nullable=False),
    sa.Column('assignee_id', sa.String(length=40), nullable=True),
    sa.Column('assigned_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.Column('routing_rule_id', sa.String(length=40), nullable=True),
    sa.Column('routing_method', sa.String(length=20), nullable=True),
    sa.Column('rotation_turn', sa.BigInteger(), nullable=True),
    sa.Column('routing_reason', sa.String(length=500), nullable=True),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('updated_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['contact_id'], ['contacts.id'], name=op.f('fk_leads_contact_id_contacts')),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_leads_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_leads'))
    )
    with op.batch_alter_table('leads', schema=None) as batch_op:
        batch_op.create_index('ix_leads_assignee', ['workspace_id', 'assignee_id', 'assigned_at'], unique=False)
        batch_op.create_index('ix_leads_contact', ['workspace_id', 'contact_id', 'id'], unique=False)
        batch_op.create_index('ix_leads_phone', ['workspace_id', 'phone_e164'], unique=False)
        batch_op.create_index('ix_leads_workspace_id_id', ['workspace_id', 'id'], unique=False)

    op.create_table('routing_cursors',
    sa.Column('rule_id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('position', sa.BigInteger(), nullable=False),
    sa.Column('updated_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['rule_id'], ['routing_rules.id'], name=op.f('fk_routing_cursors_rule_id_routing_rules')),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_routing_cursors_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('rule_id', name=op.f('pk_routing_cursors'))
    )
    with op.batch_alter_table('routing_cursors', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_routing_cursors_workspace_id'), ['workspace_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('routing_cursors', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_routing_cursors_workspace_id'))

    op.drop_table('routing_cursors')
    with op.batch_alter_table('leads', schema=None) as batch_op:
        batch_op.drop_index('ix_leads_workspace_id_id')
        batch_op.drop_index('ix_leads_phone')
        batch_op.drop_index('ix_leads_contact')
        batch_op.drop_index('ix_leads_assignee')

    op.drop_table('leads')
    with op.batch_alter_table('teams', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_teams_workspace_id'))

    op.drop_table('teams')
    with op.batch_alter_table('routing_rules', schema=None) as batch_op:
        batch_op.drop_index('ix_routing_rules_order')

    op.drop_table('routing_rules')
    with op.batch_alter_table('offices', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_offices_workspace_id'))

    op.drop_table('offices')
    with op.batch_alter_table('consent_artifacts', schema=None) as batch_op:
        batch_op.drop_index('ix_consent_artifacts_phone')

    op.drop_table('consent_artifacts')
