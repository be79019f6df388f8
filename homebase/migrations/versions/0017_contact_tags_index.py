"""contacts: an index for the tag filter on SQLite

`tag=` on SQLite tested every contact's JSON `tags` with json_each, newest first, until
a page was found: slow for a rare tag at 1,000,000 contacts (docs/performance.md,
"Search and lists at 1,000,000 contacts"), and the whole workspace for a tag nobody has. SQLite cannot index into a JSON array, so the
tags get a table of their own, `contact_tags (workspace_id, tag, contact_id)`, whose
primary key is the index: a tag-filtered page walks it in keyset order
(docs/contacts-search.md). Triggers on contacts write it from `tags`, as 0016's keep the
search index, so every write path (create, update, anonymization, a delete) keeps it in
step. Only string members are indexed: the filter compares text, which a number or an
object in the array never equalled. Existing rows are indexed here.

Also on SQLite, the FTS5 search index is merged into one b-tree ('optimize'): 0016
built it in many segments, and a query reads each (a no-match search read them all).
Writes add small segments again, which
FTS5 merges as it goes.

PostgreSQL needs nothing: its GIN index on tags (0016) answers `tags @> '["x"]'`.

Revision ID: 0017
Revises: 0016
"""
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def _tags(row: str, source: str = "") -> str:
    """The rows to write for `row`'s tags: its string members (a malformed array, which
    only a hand-written row could hold, has none, rather than failing the write)."""
    return (f"SELECT {row}.workspace_id, value, {row}.id FROM {source}json_each("
            f"CASE WHEN json_valid({row}.tags) THEN {row}.tags ELSE '[]' END) "
            "WHERE type = 'text'")


def _forget(row: str) -> str:
    """Deletes `row`'s tag rows through the primary key (workspace, tag, contact)."""
    return (f"DELETE FROM contact_tags WHERE workspace_id = {row}.workspace_id "
            f"AND contact_id = {row}.id AND tag IN (SELECT value FROM json_each("
            f"CASE WHEN json_valid({row}.tags) THEN {row}.tags ELSE '[]' END) "
            "WHERE type = 'text')")


SQLITE_UP = [
    # WITHOUT ROWID: the primary key is the table, so the index is all that is stored.
    "CREATE TABLE contact_tags (workspace_id VARCHAR(40) NOT NULL, tag VARCHAR NOT NULL, "
    "contact_id VARCHAR(40) NOT NULL, PRIMARY KEY (workspace_id, tag, contact_id)) "
    "WITHOUT ROWID",
    "INSERT OR IGNORE INTO contact_tags (workspace_id, tag, contact_id) "
    f"{_tags('contacts', 'contacts, ')}",
    "CREATE TRIGGER contact_tags_insert AFTER INSERT ON contacts BEGIN "
    f"INSERT OR IGNORE INTO contact_tags (workspace_id, tag, contact_id) {_tags('new')}; END",
    f"CREATE TRIGGER contact_tags_delete AFTER DELETE ON contacts BEGIN {_forget('old')}; END",
    "CREATE TRIGGER contact_tags_update AFTER UPDATE OF tags, id, workspace_id ON contacts "
    f"BEGIN {_forget('old')}; "
    f"INSERT OR IGNORE INTO contact_tags (workspace_id, tag, contact_id) {_tags('new')}; END",
    "INSERT INTO contacts_fts (contacts_fts) VALUES ('optimize')",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS contact_tags_update",
    "DROP TRIGGER IF EXISTS contact_tags_delete",
    "DROP TRIGGER IF EXISTS contact_tags_insert",
    "DROP TABLE IF EXISTS contact_tags",
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for statement in SQLITE_UP:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for statement in SQLITE_DOWN:
            op.execute(statement)
