"""Free-form JSON members (lead `context`, consent `form_snapshot`): objects the sender
shapes, stored and echoed back whole. The body limit bounds a request; these bound what
one member may store (docs/decisions.md, "Body limits"), so a row stays small, a list of
them stays fast, and every stored value can be rendered again (the JSON encoder stops at
254 levels; the parser accepts 1,024)."""

from typing import Any

import orjson

MAX_BYTES = 16_384  # as compact JSON
MAX_DEPTH = 8  # the member's own object is level 1
MAX_KEY_LENGTH = 128
MAX_VALUES = 512  # object members and array items at every level

DESCRIPTION = (
    f"Free-form object: at most {MAX_BYTES} bytes as compact JSON, nesting depth "
    f"{MAX_DEPTH}, keys of at most {MAX_KEY_LENGTH} characters, {MAX_VALUES} "
    "values in all (members and array items at any depth); more is 400 naming "
    "this member."
)


def bounded(value: dict[str, Any]) -> dict[str, Any]:
    """The value unchanged, or ValueError saying which bound it breaks. Walks without
    recursion and stops at the first breach, so a hostile value costs little."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    count = 0
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"nests deeper than {MAX_DEPTH} levels")
        if isinstance(node, dict):
            long_keys = [key for key in node if len(key) > MAX_KEY_LENGTH]
            if long_keys:
                raise ValueError(f"has a key longer than {MAX_KEY_LENGTH} characters")
            children = node.values()
        else:
            children = node
        count += len(children)
        if count > MAX_VALUES:
            raise ValueError(f"holds more than {MAX_VALUES} values")
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    size = len(orjson.dumps(value))
    if size > MAX_BYTES:
        raise ValueError(f"is {size} bytes as JSON; at most {MAX_BYTES}")
    return value
