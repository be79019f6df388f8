"""contacts: trigram search indexes, and indexes for the list filters

`q` was a LIKE over every row of the workspace, slow in a large one. The
searched texts get trigram indexes, so a substring search reads only the rows that
contain the query's trigrams (docs/contacts-search.md):

- PostgreSQL: pg_trgm GIN indexes on the exact expressions the search compares
  (contacts/search.py NAME_SQL, email_lower, phone, phone_e164). The extension must be
  available to the database (it ships with PostgreSQL's contrib package); creating it
  needs a role allowed to, which the migration role usually is.
- SQLite: a contentless FTS5 table with the trigram tokenizer (SQLite >= 3.34), one row
  per contact under the contact's rowid, kept in step by triggers: every write path
  (create, update, anonymization, which updates the row in place, and any delete) goes
  through them. Contentless: it holds no second copy of names, emails or phones.

The stage, source and owner filters get (workspace_id, <column>, id) indexes, so a
filtered page walks its own index in keyset order; PostgreSQL's tag filter (`tags @>`)
gets a GIN index. Existing rows are indexed by the migration itself.

Revision ID: 0016
Revises: 0015
"""
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

# Kept textually equal to contacts/search.py: PostgreSQL uses an expression index only
# for the same expression, and the FTS rows must be rebuilt from the same values that
# the triggers delete them with.
NAME_SQL = "lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))"
FTS_NAME = "coalesce({row}.first_name, '') || ' ' || coalesce({row}.last_name, '')"

FILTER_INDEXES = [
    ("ix_contacts_workspace_stage_id", ["workspace_id", "stage", "id"]),
    ("ix_contacts_workspace_source_id", ["workspace_id", "source", "id"]),
    ("ix_contacts_workspace_owner_id", ["workspace_id", "owner_id", "id"]),
]
TRIGRAM_INDEXES = [
    ("ix_contacts_search_name", f"({NAME_SQL})"),
    ("ix_contacts_search_email", "email_lower"),
    ("ix_contacts_search_phone", "phone"),
    ("ix_contacts_search_e164", "phone_e164"),
]


def _fts_values(row: str) -> str:
    return (f"{row}.rowid, {FTS_NAME.format(row=row)}, {row}.email_lower, {row}.phone, "
            f"{row}.phone_e164")


SQLITE_UP = [
    "CREATE VIRTUAL TABLE contacts_fts USING fts5("
    "name, email, phone, e164, content='', tokenize='trigram')",
    "INSERT INTO contacts_fts (rowid, name, email, phone, e164) "
    f"SELECT {_fts_values('contacts')} FROM contacts",
    "CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts BEGIN "
    "INSERT INTO contacts_fts (rowid, name, email, phone, e164) "
    f"VALUES ({_fts_values('new')}); END",
    # A contentless table forgets a row by being told its old values.
    "CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts BEGIN "
    "INSERT INTO contacts_fts (contacts_fts, rowid, name, email, phone, e164) "
    f"VALUES ('delete', {_fts_values('old')}); END",
    "CREATE TRIGGER contacts_fts_update AFTER UPDATE OF "
    "first_name, last_name, email_lower, phone, phone_e164 ON contacts BEGIN "
    "INSERT INTO contacts_fts (contacts_fts, rowid, name, email, phone, e164) "
    f"VALUES ('delete', {_fts_values('old')}); "
    "INSERT INTO contacts_fts (rowid, name, email, phone, e164) "
    f"VALUES ({_fts_values('new')}); END",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS contacts_fts_update",
    "DROP TRIGGER IF EXISTS contacts_fts_delete",
    "DROP TRIGGER IF EXISTS contacts_fts_insert",
    "DROP TABLE IF EXISTS contacts_fts",
]


def upgrade() -> None:
    for name, columns in FILTER_INDEXES:
        op.create_index(name, "contacts", columns, unique=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for name, expression in TRIGRAM_INDEXES:
            op.execute(f"CREATE INDEX {name} ON contacts USING gin ({expression} gin_trgm_ops)")
        op.execute("CREATE INDEX ix_contacts_tags ON contacts USING gin (tags jsonb_path_ops)")
    else:
        for statement in SQLITE_UP:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_contacts_tags")
        for name, _expression in reversed(TRIGRAM_INDEXES):
            op.execute(f"DROP INDEX IF EXISTS {name}")
    else:
        for statement in SQLITE_DOWN:
            op.execute(statement)
    for name, _columns in reversed(FILTER_INDEXES):
        op.drop_index(name, table_name="contacts")
