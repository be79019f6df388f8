"""outbox: events name the contact they are about (contact_id)

DELETE /contacts/{id} scrubs the stored data of the contact's events, because webhook
deliveries are built from it at send time (outbox/redaction.py). The column finds them by
index instead of a scan of every event's JSON. Existing rows are backfilled by the rule
emit uses (outbox.redaction.contact_of): data.contact_id when it is a string, else a
contact.* event's own data.id. The index starts with workspace_id, so it serves what
ix_outbox_events_workspace_id served, and that one goes (one index less per event written).

Revision ID: 0011
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

# Only ids fit the column; anything else in old data names no contact.
_BACKFILL = {
    "postgresql": """
        UPDATE outbox_events SET contact_id = CASE
          WHEN jsonb_typeof(data -> 'contact_id') = 'string'
            THEN CASE WHEN length(data ->> 'contact_id') <= 40 THEN data ->> 'contact_id' END
          WHEN substr(type, 1, 8) = 'contact.' AND jsonb_typeof(data -> 'id') = 'string'
               AND length(data ->> 'id') <= 40
            THEN data ->> 'id'
        END""",
    "sqlite": """
        UPDATE outbox_events SET contact_id = CASE
          WHEN json_type(data, '$.contact_id') = 'text'
            THEN CASE WHEN length(json_extract(data, '$.contact_id')) <= 40
                      THEN json_extract(data, '$.contact_id') END
          WHEN substr(type, 1, 8) = 'contact.' AND json_type(data, '$.id') = 'text'
               AND length(json_extract(data, '$.id')) <= 40
            THEN json_extract(data, '$.id')
        END""",
}


def upgrade() -> None:
    with op.batch_alter_table("outbox_events") as batch:
        batch.add_column(sa.Column("contact_id", sa.String(length=40), nullable=True))
    op.execute(_BACKFILL[op.get_bind().dialect.name])
    with op.batch_alter_table("outbox_events") as batch:
        batch.create_index("ix_outbox_events_workspace_contact", ["workspace_id", "contact_id"],
                           unique=False)
        batch.drop_index("ix_outbox_events_workspace_id")


def downgrade() -> None:
    with op.batch_alter_table("outbox_events") as batch:
        batch.create_index("ix_outbox_events_workspace_id", ["workspace_id"], unique=False)
        batch.drop_index("ix_outbox_events_workspace_contact")
        batch.drop_column("contact_id")
