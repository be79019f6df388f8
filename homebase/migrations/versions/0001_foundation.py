"""foundation: workspaces, members, keys, contacts, timeline, outbox

Revision ID: 0001
Revises: 
Create Date: 2026-11-22 05:42:32.573673
"""
from alembic import op
import sqlalchemy as sa
import homebase.db.types
from sqlalchemy.dialects import postgresql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('workspaces',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('settings', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_workspaces'))
    )
    op.create_table('api_keys',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('key_hint', sa.String(length=16), nullable=False),
    sa.Column('scopes', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('expires_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.Column('revoked_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_api_keys_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_keys')),
    sa.UniqueConstraint('key_hash', name=op.f('uq_api_keys_key_hash'))
    )
    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_keys_workspace_id'), ['workspace_id'], unique=False)

    op.create_table('contacts',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('first_name', sa.String(length=80), nullable=True),
    sa.Column('last_name', sa.String(length=80), nullable=True),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('email_lower', sa.String(length=254), nullable=True),
    sa.Column('phone', sa.String(length=32), nullable=True),
    sa.Column('phone_e164', sa.String(length=32), nullable=True),
    sa.Column('stage', sa.String(length=16), nullable=False),
    sa.Column('source', sa.String(length=80), nullable=True),
    sa.Column('tags', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('notes', sa.Text(), nullable=True),
    sa.Column('owner_id', sa.String(length=40), nullable=True),
    sa.Column('ai_paused_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.Column('anonymized_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('updated_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_contacts_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_contacts'))
    )
    with op.batch_alter_table('contacts', schema=None) as batch_op:
        batch_op.create_index('ix_contacts_workspace_id_email_lower', ['workspace_id', 'email_lower'], unique=False)
        batch_op.create_index('ix_contacts_workspace_id_id', ['workspace_id', 'id'], unique=False)
        batch_op.create_index('ix_contacts_workspace_id_phone_e164', ['workspace_id', 'phone_e164'], unique=False)

    op.create_table('outbox_events',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('type', sa.String(length=60), nullable=False),
    sa.Column('data', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('occurred_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.Column('dispatched_at', homebase.db.types.UTCDateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_outbox_events_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_events'))
    )
    with op.batch_alter_table('outbox_events', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_events_pending', ['dispatched_at', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_events_workspace_id'), ['workspace_id'], unique=False)

    op.create_table('sender_numbers',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('number', sa.String(length=32), nullable=False),
    sa.Column('channel', sa.String(length=16), nullable=False),
    sa.Column('a2p_status', sa.String(length=16), nullable=False),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_sender_numbers_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sender_numbers')),
    sa.UniqueConstraint('workspace_id', 'number', 'channel', name=op.f('uq_sender_numbers_workspace_id_number_channel'))
    )
    with op.batch_alter_table('sender_numbers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sender_numbers_workspace_id'), ['workspace_id'], unique=False)

    op.create_table('users',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=True),
    sa.Column('office_id', sa.String(length=40), nullable=True),
    sa.Column('team_id', sa.String(length=40), nullable=True),
    sa.Column('created_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_users_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_users')),
    sa.UniqueConstraint('workspace_id', 'email', name=op.f('uq_users_workspace_id_email'))
    )
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_users_workspace_id'), ['workspace_id'], unique=False)

    op.create_table('timeline_events',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('workspace_id', sa.String(length=40), nullable=False),
    sa.Column('contact_id', sa.String(length=40), nullable=False),
    sa.Column('type', sa.String(length=40), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('body', sa.Text(), nullable=True),
    sa.Column('data', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('actor', sa.String(length=60), nullable=True),
    sa.Column('occurred_at', homebase.db.types.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['contact_id'], ['contacts.id'], name=op.f('fk_timeline_events_contact_id_contacts')),
    sa.ForeignKeyConstraint(['workspace_id'], ['workspaces.id'], name=op.f('fk_timeline_events_workspace_id_workspaces')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_timeline_events'))
    )
    with op.batch_alter_table('timeline_events', schema=None) as batch_op:
        batch_op.create_index('ix_timeline_events_contact', ['workspace_id', 'contact_id', 'id'], unique=False)
        batch_op.create_index('ix_timeline_events_contact_type', ['workspace_id', 'contact_id', 'type', 'id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('timeline_events', schema=None) as batch_op:
        batch_op.drop_index('ix_timeline_events_contact_type')
        batch_op.drop_index('ix_timeline_events_contact')

    op.drop_table('timeline_events')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_users_workspace_id'))

    op.drop_table('users')
    with op.batch_alter_table('sender_numbers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sender_numbers_workspace_id'))

    op.drop_table('sender_numbers')
    with op.batch_alter_table('outbox_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_events_workspace_id'))
        batch_op.drop_index('ix_outbox_events_pending')

    op.drop_table('outbox_events')
    with op.batch_alter_table('contacts', schema=None) as batch_op:
        batch_op.drop_index('ix_contacts_workspace_id_phone_e164')
        batch_op.drop_index('ix_contacts_workspace_id_id')
        batch_op.drop_index('ix_contacts_workspace_id_email_lower')

    op.drop_table('contacts')
    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_keys_workspace_id'))

    op.drop_table('api_keys')
    op.drop_table('workspaces')
