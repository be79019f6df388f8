"""Contact search (`q`): the matching rule, and the statements that find it by index.

The rule (docs/decisions.md, Contacts): the full name ("first last", lower case) by
substring; for credentials holding contacts:read:pii also email and phone by substring
and the phone's E.164 digits; for others only an exact email address; for everyone an
exact phone number in E.164. The full name covers first and last name alone: `lower`
works character by character on both databases, so a substring of either is one of
"first last".

A query of three or more characters (after trimming) is found through trigram indexes
(migration 0016): pg_trgm GIN indexes on PostgreSQL, the `contacts_fts` FTS5 table on
SQLite. Shorter ones scan the workspace as before (a trigram index cannot answer them).
Either way `condition()` decides every row: on SQLite the FTS5 match only narrows the
rows (a superset: it folds case at least as widely as LIKE does), so the results are the
rule's exactly.

A page is the newest matches, and no index gives matches in id order. So a page is
looked for in two steps (docs/contacts-search.md): first among the newest WINDOW
contacts after the cursor, walking the (workspace_id, id) index, which fills the page
when matches are common; if it does not, through the trigram index alone, which costs in
proportion to the matches, few by then. Each step answers the rule exactly; the second
runs only when the first found less than a full page.
"""

from sqlalchemy import (
    ColumnElement,
    Select,
    String,
    column,
    func,
    literal_column,
    or_,
    table,
    union_all,
)

from homebase.db.tenancy import TenantSession
from homebase.kit.phones import to_e164
from homebase.models import Contact

contacts = Contact.__table__
MIN_INDEXED = 3  # trigrams: shorter queries have none to look up
WINDOW = 1000  # newest contacts tried before the index: ~0.5 ms on either database

# Written so PostgreSQL sees the expression of ix_contacts_search_name (migration 0016
# NAME_SQL): literals inline, not bound parameters, or the index does not apply.
NAME = func.lower(func.coalesce(contacts.c.first_name, literal_column("''", String))
                  .concat(literal_column("' '", String))
                  .concat(func.coalesce(contacts.c.last_name, literal_column("''", String))))

# The FTS5 table of migration 0016 (SQLite), joined to contacts by rowid.
fts = table("contacts_fts", column("rowid"), column("contacts_fts"))
ROWID = literal_column("contacts.rowid")


def like_pattern(text: str) -> str:
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _digits(q: str) -> str:
    digits = "".join(character for character in q if character.isdigit())
    return digits if len(digits) >= 3 else ""


def condition(q: str, pii: bool) -> ColumnElement[bool]:
    """The rule, row by row. Email and phone match by substring only for credentials that
    may see them; otherwise only an exact address or number matches, so a masked
    credential can find a person it already knows but cannot probe digit by digit."""
    pattern = like_pattern(q)
    conditions = [NAME.like(pattern, escape="\\")]
    if pii:
        conditions.append(contacts.c.email_lower.like(pattern, escape="\\"))
        conditions.append(contacts.c.phone.like(pattern, escape="\\"))
        if digits := _digits(q):
            conditions.append(contacts.c.phone_e164.like(f"%{digits}%"))
    else:
        conditions.append(contacts.c.email_lower == q.strip().lower())
    if e164 := to_e164(q):
        conditions.append(contacts.c.phone_e164 == e164)
    return or_(*conditions)


def indexed(q: str) -> bool:
    """Whether `q` is answered through the trigram indexes."""
    trimmed = q.strip()
    return len(trimmed) >= MIN_INDEXED and "\x00" not in trimmed


def _phrase(text: str) -> str:
    """An FTS5 phrase: with the trigram tokenizer, "text" matches it as a substring."""
    return '"' + text.replace('"', '""') + '"'


def fts_query(q: str, pii: bool) -> str:
    """An FTS5 query matching at least every row the substring branches of condition()
    match (indexed(q) holds): each is a substring of one column, and the trimmed query is
    a substring of anything containing the query. A text asked of several columns is one
    phrase: FTS5 reads a trigram's whole list once per phrase, whatever the columns."""
    columns = {q.strip().lower(): ["name", "email", "phone"] if pii else ["name"]}
    if pii and (digits := _digits(q)):
        columns.setdefault(digits, []).append("e164")
    return " OR ".join(_phrase(text) if len(names) == 4 else
                       "{" + " ".join(names) + "} : " + _phrase(text)
                       for text, names in columns.items())


def _candidates(session: TenantSession, q: str, pii: bool):
    """Rowids that may match: the FTS5 match, and the exact branches of condition()
    through their (workspace_id, email_lower / phone_e164) indexes."""
    sources = [fts.select().with_only_columns(fts.c.rowid)
               .where(fts.c.contacts_fts.op("MATCH")(fts_query(q, pii)))]
    if not pii:
        sources.append(session.select(contacts, ROWID)
                       .where(contacts.c.email_lower == q.strip().lower()))
    if e164 := to_e164(q):
        sources.append(session.select(contacts, ROWID).where(contacts.c.phone_e164 == e164))
    return sources[0] if len(sources) == 1 else union_all(*sources)


def window_statement(session: TenantSession, statement: Select, after_id: str | None,
                     limit: int) -> Select:
    """The page among the newest WINDOW contacts after the cursor (all of them when
    there are fewer): `statement` holds every filter and condition(); an index walk of
    WINDOW ids finds the window's oldest id."""
    edge = session.select(contacts, contacts.c.id)
    if after_id is not None:
        edge = edge.where(contacts.c.id < after_id)
    edge = edge.order_by(contacts.c.id.desc()).limit(1).offset(WINDOW - 1).scalar_subquery()
    statement = statement.where(contacts.c.id >= func.coalesce(edge, literal_column("''")))
    return _page(statement, after_id, limit)


def indexed_statement(session: TenantSession, base: Select, q: str, pii: bool,
                      after_id: str | None, limit: int) -> Select:
    """The page through the trigram indexes, never by walking ids: `base` holds the
    filters (not condition()), built by `session.select_via_other_index`.

    SQLite: the FTS5 match (and the exact branches' own indexes) give the candidate
    rowids, condition() decides each. Its
    workspace filter is kept off the (workspace_id, id) index, which SQLite otherwise
    prefers for the order and walks the whole workspace probing the candidates.
    PostgreSQL: ordered by an expression no index provides (`id || ''` sorts as id), so
    the planner cannot choose to walk the primary key in order and filter; it reads the
    matches from the GIN indexes (a bitmap) and sorts them."""
    statement = base.where(condition(q, pii))
    if session.dialect == "sqlite":
        statement = statement.where(ROWID.in_(_candidates(session, q, pii)))
        if after_id is not None:
            # `+id`: nor may the id's own index drive it (SQLite's way to say so).
            statement = statement.where(literal_column("+contacts.id", String) < after_id)
        return statement.order_by(contacts.c.id.desc()).limit(limit + 1)
    if after_id is not None:
        statement = statement.where(contacts.c.id < after_id)
    order = contacts.c.id.concat(literal_column("''", String))
    return statement.order_by(order.desc()).limit(limit + 1)


def _page(statement: Select, after_id: str | None, limit: int) -> Select:
    if after_id is not None:
        statement = statement.where(contacts.c.id < after_id)
    return statement.order_by(contacts.c.id.desc()).limit(limit + 1)

