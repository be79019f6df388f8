"""What a list runs for one page (http/lists.py), named here so that a domain's repository
can build it without importing the HTTP layer (contacts/repository.py)."""

from collections.abc import Awaitable, Callable
from typing import Any

from homebase.kit.statements import AnySelect

# A statement, or a kept one and the values of its bindparams.
Built = AnySelect | tuple[AnySelect, dict[str, Any]]
Step = Built | Callable[[], Awaitable[list[dict[str, Any]] | None]]  # see list_response
