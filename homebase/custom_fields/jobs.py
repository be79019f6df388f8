"""Worker job: a deleted custom field's values are removed in the background, in bounded
batches (service.purge_batch), and then its row. Until then nothing shows them: records
render live fields only, and filters name live fields only."""

from sqlalchemy import select

from homebase.custom_fields import service
from homebase.custom_fields.repository import fields
from homebase.db.tenancy import TenantSession
from homebase.runtime import Runtime
from homebase.worker import queue

BATCHES_PER_ROUND = 4  # each its own short transaction

_NEXT_DELETED = (
    select(fields.c.id, fields.c.workspace_id, fields.c.object)
    .where(fields.c.deleted_at.is_not(None))
    .order_by(fields.c.deleted_at, fields.c.id)
    .limit(1)
)


async def purge_deleted(runtime: Runtime) -> int:
    """Up to BATCHES_PER_ROUND batches; the records cleared plus the fields finished. A
    field being purged is locked by its transaction, so another worker takes the next
    one (PostgreSQL; SQLite's one writer at a time stands in)."""
    done = 0
    for _ in range(BATCHES_PER_ROUND):
        async with runtime.db.transaction() as connection:
            taken = await queue.take(connection, _NEXT_DELETED)
            if not taken:
                return done
            field = dict(taken[0])
            session = TenantSession(connection, field["workspace_id"], clock=runtime.clock)
            done += await service.purge_batch(session, field) + 1
    return done
