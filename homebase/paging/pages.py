"""What a list runs for one page (http/lists.py), named here so that a domain's repository
can build it without importing the HTTP layer (contacts/repository.py), and the running of
it, shared by a list page and an export's batch (exports/jobs.py)."""

from collections.abc import Awaitable, Callable
from typing import Any

from homebase.db.tenancy import TenantSession
from homebase.kit.statements import AnySelect

# A statement, or a kept one and the values of its bindparams.
Built = AnySelect | tuple[AnySelect, dict[str, Any]]
Step = Built | Callable[[], Awaitable[list[dict[str, Any]] | None]]  # see http/lists.paginate


async def first_answer(
    session: TenantSession, steps: list[Step], limit: int
) -> list[dict[str, Any]]:
    """The page from the first step that answers it (contacts/search.py): each answers
    the page exactly when it answers at all, so a later one runs only when an earlier
    could not. A statement could not when it found less than a full page; a callable
    runs its own statements and says so by returning None. A list page (http/lists.py)
    and an export's batch (exports/jobs.py) both read through here."""
    rows: list[dict[str, Any]] = []
    for step in steps:
        if callable(step):
            answer = await step()
            if answer is None:
                continue
            return answer
        statement, params = step if isinstance(step, tuple) else (step, None)
        rows = await session.fetch_all(statement, params)
        if len(rows) > limit:
            break
    return rows
