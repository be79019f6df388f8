"""`homebase admin rotate-secrets`: re-seal every stored sealed value under the current key.

After HOMEBASE_SECRET_KEY changes (the old key kept as HOMEBASE_SECRET_KEY_PREVIOUS),
sealed values still open under the previous key; this moves them onto the current one so
the previous key can be dropped. Signed values (cursors, links, CSRF tokens, the
workspace pick) are not stored: they expire on their own within hours, which is how long
the previous key should be kept after this command (docs/decisions.md).
"""

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from homebase.calendars.service import SEAL_PURPOSE as CALENDAR_PURPOSE
from homebase.kit.keys import Keyring
from homebase.kit.sealed import SealBroken, reseal
from homebase.models import MemberCalendar, WebhookSubscription
from homebase.webhooks.service import SEAL_PURPOSE as WEBHOOK_PURPOSE


@dataclass(frozen=True)
class SealedColumn:
    """A column of values sealed for `purpose` and bound to their row's id."""

    table: Table
    column: str
    purpose: str


# Every sealed value the service stores; a new one is added here.
SEALED = (
    SealedColumn(WebhookSubscription.__table__, "secret_encrypted", WEBHOOK_PURPOSE),
    SealedColumn(MemberCalendar.__table__, "credentials_sealed", CALENDAR_PURPOSE),
)


async def rotate(connection: AsyncConnection, keys: Keyring) -> dict[str, Any]:
    """Counts by table: values re-sealed, and values neither key opens (left as they are:
    they were already unreadable, and the previous key does not help them)."""
    resealed: dict[str, int] = {}
    unreadable: dict[str, int] = {}
    for sealed in SEALED:
        table, column = sealed.table, sealed.table.c[sealed.column]
        rows = (
            await connection.execute(select(table.c.id, column).where(column.is_not(None)))
        ).all()
        name = table.name
        resealed[name] = unreadable[name] = 0
        for row_id, value in rows:
            try:
                fresh = reseal(keys, sealed.purpose, value, row_id)
            except SealBroken:
                unreadable[name] += 1
                continue
            if fresh is not None:
                # Only if unchanged since read: a value rewritten meanwhile is already current.
                await connection.execute(
                    update(table)
                    .where(table.c.id == row_id, column == value)
                    .values({sealed.column: fresh})
                )
                resealed[name] += 1
    return {"resealed": resealed, "unreadable": unreadable}
