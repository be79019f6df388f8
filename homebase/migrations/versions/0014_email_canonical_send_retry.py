"""messaging: email suppressions in canonical form; a retry time for unsent messages

The suppression gate compares the lower-cased bare address (homebase/kit/emails.py).
Stored email suppressions are brought to that form: trimmed and lower-cased, and one
written with a display name or comment ("Dana <Dana@Example.com>") becomes the mailbox
the mail library would have read from it. Rows are only rewritten, never merged: the
table has no unique constraint (several rows for one address are allowed, each is
evidence of an opt-out), so a duplicate this creates breaks nothing.

messages.next_attempt_at: a send that failed before reaching its provider is QUEUED
again with a backoff and not claimed before this time (messaging/tasks.py).

Revision ID: 0014
Revises: 0013
"""
from email.utils import parseaddr

import sqlalchemy as sa
from alembic import op

import homebase.db.types

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_suppressions = sa.table("suppressions", sa.column("id", sa.String), sa.column("kind", sa.String),
                         sa.column("address", sa.String))


def canonical(stored: str) -> str:
    """The lower-cased bare address; a stored RFC 5322 form gives its mailbox."""
    address = stored.strip()
    if any(mark in address for mark in "<>()\",; \t\r\n"):
        _, parsed = parseaddr(address)
        if parsed.count("@") == 1 and not any(mark in parsed for mark in "<>()\",; \t\r\n"):
            address = parsed
    return address.lower()


def upgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.add_column(sa.Column("next_attempt_at",
                                   homebase.db.types.UTCDateTime(timezone=True), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(_suppressions.c.id, _suppressions.c.address).where(
        sa.or_(_suppressions.c.kind == "email", _suppressions.c.address.like("%@%")))).all()
    for row_id, address in rows:
        fixed = canonical(address)
        if fixed != address:
            connection.execute(_suppressions.update().where(_suppressions.c.id == row_id)
                               .values(address=fixed, kind="email"))


def downgrade() -> None:
    # The canonical addresses stay: the earlier code compared lower-case addresses too.
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("next_attempt_at")
