"""Import queries. Every statement starts from the TenantSession (the worker's claim,
across workspaces, is in jobs.py)."""

from typing import Any, cast

from sqlalchemy import bindparam

from homebase.db.tenancy import TenantSession, tenant_select
from homebase.imports.records import (
    ImportErrorRecord,
    ImportRecord,
    NewImport,
    UnfinishedPayload,
)
from homebase.kit.statements import AnySelect
from homebase.models import DataImport, ImportRowError
from homebase.paging.listing import Listing

imports = DataImport.__table__
import_errors = ImportRowError.__table__

# The job as the API shows it: never the payload (up to HOMEBASE_MAX_BODY_BYTES).
SHOWN = tuple(column for column in imports.columns if column.key != "payload")
_GET = tenant_select(imports, *SHOWN).where(imports.c.id == bindparam("import_id"))


async def insert(session: TenantSession, row: NewImport) -> None:
    await session.insert(imports, row)


async def get(session: TenantSession, import_id: str) -> ImportRecord | None:
    return cast("ImportRecord | None", await session.fetch_one(_GET, {"import_id": import_id}))


def listing(session: TenantSession, objects: list[str]) -> Listing[ImportRecord]:
    """GET /v1/imports: the imports of these objects, newest first."""
    statement = session.select(imports, *SHOWN).where(imports.c.object.in_(objects))
    return Listing.newest(statement, imports)


def error_id(import_id: str, index: int) -> str:
    """Sorts in index order within an import (indexes are below 100,000)."""
    return f"{import_id}.{index:05d}"


async def insert_errors(
    session: TenantSession,
    import_id: str,
    errors: list[tuple[int, int | None, str, list[dict[str, str]]]],
) -> None:
    """(index, line, kind, items) of each row refused or written with warnings."""
    await session.insert(
        import_errors,
        [
            {
                "id": error_id(import_id, index),
                "import_id": import_id,
                "row_index": index,
                "line": line,
                "kind": kind,
                "errors": items,
            }
            for index, line, kind, items in errors
        ],
    )


def errors_listing(
    session: TenantSession, import_id: str, kind: str | None = None
) -> Listing[ImportErrorRecord]:
    """GET /v1/imports/{id}/errors: the rows refused or written with warnings (`kind`:
    one of them) in index order (ascending, unlike the newest-first lists): the cursor is
    the last row's id."""
    statement = session.select(import_errors).where(import_errors.c.import_id == import_id)
    if kind is not None:
        statement = statement.where(import_errors.c.kind == kind)

    def page(after_id: str | None, limit: int) -> AnySelect:
        walk = statement if after_id is None else statement.where(import_errors.c.id > after_id)
        return walk.order_by(import_errors.c.id).limit(limit + 1)

    return Listing(page)


async def refused_lines(session: TenantSession, import_id: str) -> list[ImportErrorRecord]:
    """Every refused row of an import that came from a file (its line known), in order:
    at most the import's MAX_ROWS."""
    rows = await session.fetch_all(
        session.select(import_errors)
        .where(
            import_errors.c.import_id == import_id,
            import_errors.c.kind == "refused",
            import_errors.c.line.is_not(None),
        )
        .order_by(import_errors.c.id)
    )
    return cast("list[ImportErrorRecord]", rows)


async def unfinished_payloads(session: TenantSession) -> list[UnfinishedPayload]:
    """Queued and running imports that have written rows: id, position, payload."""
    rows = await session.fetch_all(
        session.select(imports, imports.c.id, imports.c.position, imports.c.payload).where(
            imports.c.status.in_(("queued", "running")), imports.c.position > 0
        )
    )
    return cast("list[UnfinishedPayload]", rows)


async def replace_payload(
    session: TenantSession, import_id: str, position: int, payload: list[Any]
) -> None:
    """Only while the import is where it was read: a batch committed since then keeps
    its own (later) rows."""
    await session.execute(
        session.update(imports)
        .where(imports.c.id == import_id, imports.c.position == position)
        .values(payload=payload)
    )
