"""U+0000 in what a client sends is refused, everywhere text enters the service.

PostgreSQL's text and jsonb cannot store it (the statement fails, which was a 500), while
SQLite stores it; no field of the API, the OAuth endpoints or the console has a use for
it. Each entry point names what held it in its own error format: /v1 a 400
validation_failed naming each field (http/v1_route.py), the OAuth endpoints
invalid_request (oauth/forms.py), console pages a 400 page (console/common.py,
console/login.py, oauth/consent.py).
"""

from collections.abc import Iterable
from typing import Any

NUL = "\x00"
MESSAGE = "must not contain the NUL character (U+0000)"


def readable(name: str) -> str:
    """A field name as it can be shown: U+0000 written as the JSON escape."""
    return name.replace(NUL, "\\u0000")


def names_holding_nul(pairs: Iterable[tuple[str, Any]]) -> list[str]:
    """The names (shown `readable`) whose name or text value holds U+0000, in order."""
    return [
        readable(name)
        for name, value in pairs
        if NUL in name or (isinstance(value, str) and NUL in value)
    ]


def json_fields_holding_nul(value: Any, path: str = "") -> list[str]:
    """Dotted paths (list items by index) of the strings and keys holding U+0000 in a
    decoded JSON value; a key that holds it is named, its value not searched."""
    if isinstance(value, str):
        return [path or "body"] if NUL in value else []
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            child = f"{path}.{readable(key)}" if path else readable(key)
            found.extend([child] if NUL in key else json_fields_holding_nul(item, child))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(json_fields_holding_nul(item, f"{path}.{index}" if path else str(index)))
    return found
