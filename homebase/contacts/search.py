"""Contact search (`q`): the matching rule, and the statements that find it by index.

The rule (docs/decisions.md, "Contact search"): the full name ("first last", lower case) by
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
looked for in steps (docs/contacts-search.md), each of which answers the rule exactly:

1. SQLite only: `Candidates`, the FTS5 match's rowids, read up to CAP + 1. When there
   are at most CAP, the page is those rows (and the exact branches' own) sorted, and
   nothing else runs: a query that finds nothing or a few is one cheap statement or two.
2. The newest WINDOW contacts after the cursor, walking the (workspace_id, id) index,
   which fills the page when matches are common. Skipped on PostgreSQL for a query that
   names a number (`names_a_number`): it finds a few.
3. Through the trigram index alone, which costs in proportion to the matches.

Statements are built once per workspace and shape, with bindparams for the query's
values (`params()`): building and cache-keying them per request cost as much as running
them (docs/performance.md).
"""

import re
from typing import Any

from sqlalchemy import (
    ColumnClause,
    ColumnElement,
    Integer,
    String,
    bindparam,
    column,
    func,
    literal_column,
    or_,
    select,
    table,
    union_all,
)

from homebase.db.tenancy import TenantSession
from homebase.kit.phones import DEFAULT_REGION, to_e164
from homebase.kit.statements import AnySelect
from homebase.models import Contact

contacts = Contact.__table__
MIN_INDEXED = 3  # trigrams: shorter queries have none to look up
WINDOW = 1000  # newest contacts tried before the index, cheap on either database
# FTS5 candidates (SQLite) at or below which they alone give the page: each costs a row
# lookup anywhere in the table, so CAP bounds that step (docs/performance.md, "Search and
# lists at 1,000,000 contacts").
CAP = 200
SUBSCRIBER = 7  # digits of a long number the FTS5 query narrows it to (_narrowed)

# Written so PostgreSQL sees the expression of ix_contacts_search_name (migration 0016
# NAME_SQL): literals inline, not bound parameters, or the index does not apply.
FULL_NAME = (
    func.coalesce(contacts.c.first_name, literal_column("''", String))
    .concat(literal_column("' '", String))
    .concat(func.coalesce(contacts.c.last_name, literal_column("''", String)))
)
NAME = func.lower(FULL_NAME)
# SQLite compares the name without lower(): its LIKE already folds ASCII case, and its
# lower() folds nothing else (no ICU), so the matches are the same; a window step
# spends about a fifth of its time less.
NAMES = {"sqlite": FULL_NAME}

# The FTS5 table of migration 0016 (SQLite), joined to contacts by rowid.
fts = table("contacts_fts", column("rowid"), column("contacts_fts"))
ROWID: ColumnClause[Any] = literal_column("contacts.rowid")

# The bindparams of condition() and of the steps; params() gives their values.
PATTERN, DIGITS, EMAIL, E164 = "search_pattern", "search_digits", "search_email", "search_e164"
FTS_QUERY, FOUND, EDGE, LIMIT = "search_fts", "search_found", "search_edge", "search_limit"
AFTER, PROBE = "search_after", "search_probe"


def like_pattern(text: str) -> str:
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _digits(q: str) -> str:
    digits = "".join(character for character in q if character.isdigit())
    return digits if len(digits) >= 3 else ""


def indexed(q: str) -> bool:
    """Whether `q` is answered through the trigram indexes."""
    trimmed = q.strip()
    return len(trimmed) >= MIN_INDEXED and "\x00" not in trimmed


_NUMBER_CHARACTERS = frozenset("0123456789+-(). ")


def names_a_number(q: str) -> bool:
    """Whether `q` reads as a phone number or a long part of one: SUBSCRIBER or more
    digits and nothing but a number's punctuation besides. Such a query finds a contact
    or a few, so on PostgreSQL its page is read through the trigram indexes at once
    (step 3) instead of first walking the newest WINDOW contacts, a statement that costs
    as much as the index's and finds nothing for a rare term (docs/performance.md,
    "Search and lists at 1,000,000 contacts")."""
    trimmed = q.strip()
    return (
        sum(character.isdigit() for character in trimmed) >= SUBSCRIBER
        and set(trimmed) <= _NUMBER_CHARACTERS
    )


def _phrase(text: str) -> str:
    """An FTS5 phrase: with the trigram tokenizer, "text" matches it as a substring."""
    return '"' + text.replace('"', '""') + '"'


def _narrowed(text: str) -> str:
    """What the FTS5 query asks for `text`: the text itself, or when it holds a run of
    more than SUBSCRIBER digits, that run's last SUBSCRIBER digits, a substring of it (so
    still a superset). A number's leading digits (country and area code) are shared by
    most contacts, and FTS5 reads each trigram's whole list, so the trigrams of those
    shared digits are the longest lists to read (docs/performance.md, "Search and lists
    at 1,000,000 contacts")."""
    longest = max(re.findall(r"\d+", text), key=len, default="")
    return longest[-SUBSCRIBER:] if len(longest) > SUBSCRIBER else text


def fts_query(q: str, pii: bool) -> str:
    """An FTS5 query matching at least every row the substring branches of condition()
    match (indexed(q) holds): each is a substring of one column, and the trimmed query
    (or a substring of it, `_narrowed`) is a substring of anything containing the query.
    A text asked of several columns is one phrase: FTS5 reads a trigram's whole list once
    per phrase, whatever the columns."""
    columns = {_narrowed(q.strip().lower()): ["name", "email", "phone"] if pii else ["name"]}
    if pii and (digits := _digits(q)):
        columns.setdefault(_narrowed(digits), []).append("e164")
    return " OR ".join(
        _phrase(text) if len(names) == 4 else "{" + " ".join(names) + "} : " + _phrase(text)
        for text, names in columns.items()
    )


# bound values, by bindparam name (SQLAlchemy's)
def params(
    q: str,
    pii: bool,
    region: str = DEFAULT_REGION,
    # bound values, by bindparam name (SQLAlchemy's)
) -> tuple[tuple[bool, bool, bool], dict[str, Any]]:
    """The shape of condition() for `q` (pii, digits branch, exact E.164 branch) and the
    values of its bindparams. `q` read as a phone number (without a country code, in
    `region`, the workspace's default_phone_region) matches phone_e164 exactly, so a
    number finds its contact whatever the format either was written in."""
    # bound values, by bindparam name (SQLAlchemy's)
    values: dict[str, Any] = {PATTERN: like_pattern(q)}
    digits = _digits(q) if pii else ""
    if digits:
        values[DIGITS] = f"%{digits}%"
    if not pii:
        values[EMAIL] = q.strip().lower()
    if e164 := to_e164(q, region):
        values[E164] = e164
    if indexed(q):
        values[FTS_QUERY] = fts_query(q, pii)
    return (pii, bool(digits), e164 is not None), values


def condition(shape: tuple[bool, bool, bool], dialect: str) -> ColumnElement[bool]:
    """The rule, row by row. Email and phone match by substring only for credentials that
    may see them; otherwise only an exact address or number matches, so a masked
    credential can find a person it already knows but cannot probe digit by digit."""
    pii, digits, e164 = shape
    pattern = bindparam(PATTERN, type_=String)
    conditions: list[ColumnElement[bool]] = [NAMES.get(dialect, NAME).like(pattern, escape="\\")]
    if pii:
        conditions.append(contacts.c.email_lower.like(pattern, escape="\\"))
        conditions.append(contacts.c.phone.like(pattern, escape="\\"))
        if digits:
            conditions.append(contacts.c.phone_e164.like(bindparam(DIGITS, type_=String)))
    else:
        conditions.append(contacts.c.email_lower == bindparam(EMAIL, type_=String))
    if e164:
        conditions.append(contacts.c.phone_e164 == bindparam(E164, type_=String))
    return or_(*conditions)


def _fts_match() -> ColumnElement[Any]:
    return fts.c.contacts_fts.op("MATCH")(bindparam(FTS_QUERY, type_=String))


def _exact_rowids(session: TenantSession, shape: tuple[bool, bool, bool]) -> list[AnySelect]:
    """The exact branches of condition(), through their (workspace_id, email_lower /
    phone_e164) indexes: no trigram index holds what they match."""
    pii, _digits_branch, e164 = shape
    sources = []
    if not pii:
        sources.append(
            session.select(contacts, ROWID).where(
                contacts.c.email_lower == bindparam(EMAIL, type_=String)
            )
        )
    if e164:
        sources.append(
            session.select(contacts, ROWID).where(
                contacts.c.phone_e164 == bindparam(E164, type_=String)
            )
        )
    return sources


def _rowids_in(sources: list[AnySelect]) -> ColumnElement[bool]:
    return ROWID.in_(sources[0] if len(sources) == 1 else union_all(*sources))


def _through_other_index(statement: AnySelect, after: bool) -> AnySelect:
    """The page's cursor and order over rows another index found: the cursor written
    `+id`, or SQLite would walk the id index (its documented way to say so)."""
    statement = _after(statement, after, literal_column("+contacts.id", String))
    return statement.order_by(contacts.c.id.desc()).limit(bindparam(LIMIT, type_=Integer))


def _after(
    statement: AnySelect, after: bool, column: ColumnElement[Any] = contacts.c.id
) -> AnySelect:
    return statement.where(column < bindparam(AFTER, type_=String)) if after else statement


def probe_statement(session: TenantSession) -> AnySelect:
    """The FTS5 match's first CAP + 1 rowids as a JSON array, in one row (SQLite). The
    array is of the whole table's rows (FTS5 knows no workspace); the page statement
    keeps this workspace's. Asked through a contact of the workspace so the session runs
    it; a workspace without contacts has no row, and nothing to find."""
    capped = (
        select(fts.c.rowid).where(_fts_match()).limit(bindparam(PROBE, type_=Integer)).subquery()
    )
    found = select(func.json_group_array(capped.c.rowid)).scalar_subquery()
    return session.select(contacts, found.label("found")).limit(1)


def candidates_statement(
    session: TenantSession, base: AnySelect, shape: tuple[bool, bool, bool], after: bool
) -> AnySelect:
    """The page among the rowids the probe found (a JSON array) and the exact branches':
    `base` holds the filters, built by `session.select_unindexed_scope` so the rowids
    drive (contacts/repository.py)."""
    found = func.json_each(bindparam(FOUND, type_=String)).table_valued("value", name="found")
    sources = [select(found.c.value), *_exact_rowids(session, shape)]
    statement = base.where(condition(shape, session.dialect)).where(_rowids_in(sources))
    return _through_other_index(statement, after)


def window_statement(
    session: TenantSession, statement: AnySelect, shape: tuple[bool, bool, bool], after: bool
) -> AnySelect:
    """The page among the newest WINDOW contacts after the cursor (all of them when
    there are fewer): `statement` holds every filter; an index walk of WINDOW ids finds
    the window's oldest id (the EDGE bindparam is WINDOW - 1, read per request)."""
    ids = _after(session.select(contacts, contacts.c.id), after)
    edge = (
        ids.order_by(contacts.c.id.desc())
        .limit(1)
        .offset(bindparam(EDGE, type_=Integer))
        .scalar_subquery()
    )
    statement = statement.where(condition(shape, session.dialect)).where(
        contacts.c.id >= func.coalesce(edge, literal_column("''"))
    )
    statement = _after(statement, after)
    return statement.order_by(contacts.c.id.desc()).limit(bindparam(LIMIT, type_=Integer))


def indexed_statement(
    session: TenantSession, base: AnySelect, shape: tuple[bool, bool, bool], after: bool
) -> AnySelect:
    """The page through the trigram indexes, never by walking ids: `base` holds the
    filters (not condition()), built by `session.select_unindexed_scope`.

    SQLite: the FTS5 match (and the exact branches' own indexes) give the candidate
    rowids, condition() decides each. Its workspace filter is kept off the
    (workspace_id, id) index, which SQLite otherwise prefers for the order and walks the
    whole workspace probing the candidates.
    PostgreSQL: ordered by an expression no index provides (`id || ''` sorts as id), so
    the planner cannot choose to walk the primary key in order and filter; it reads the
    matches from the GIN indexes (a bitmap) and sorts them."""
    statement = base.where(condition(shape, session.dialect))
    if session.dialect == "sqlite":
        sources = [select(fts.c.rowid).where(_fts_match()), *_exact_rowids(session, shape)]
        statement = statement.where(_rowids_in(sources))
        return _through_other_index(statement, after)
    statement = _after(statement, after)
    order = contacts.c.id.concat(literal_column("''", String))
    return statement.order_by(order.desc()).limit(bindparam(LIMIT, type_=Integer))


# bound values, by bindparam name (SQLAlchemy's)
def step_params(values: dict[str, Any], after_id: str | None, limit: int) -> dict[str, Any]:
    """The bindparams of every step's statement, for one request."""
    values = {**values, EDGE: WINDOW - 1, LIMIT: limit + 1}
    if after_id is not None:
        values[AFTER] = after_id
    return values


class Candidates:
    """Step 1 (SQLite), a callable step of http/lists.py: the page from the FTS5
    candidates when there are at most CAP of them, else None (go on to the next step).
    `probe` reads them (probe_statement), `page` looks them up (candidates_statement)."""

    __slots__ = ("session", "probe", "page", "values")

    def __init__(
        self,
        session: TenantSession,
        probe: AnySelect,
        page: AnySelect,
        # bound values, by bindparam name (SQLAlchemy's)
        values: dict[str, Any],
    ) -> None:
        self.session, self.probe, self.page = session, probe, page
        self.values = values

    # a page's rows (ContactPageRow's columns), as paging/pages.Step runs them
    async def __call__(self) -> list[dict[str, Any]] | None:
        values = self.values
        row = await self.session.fetch_one(
            self.probe, {FTS_QUERY: values[FTS_QUERY], PROBE: CAP + 1}
        )
        found = row["found"] if row is not None else "[]"
        count = 0 if found == "[]" else found.count(",") + 1
        if count > CAP:
            return None
        if count == 0 and EMAIL not in values and E164 not in values:
            return []  # nothing to look up: no statement
        return await self.session.fetch_all(self.page, {**values, FOUND: found})
