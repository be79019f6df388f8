"""The `fields` allow-list: narrows a payload to named members, id always kept.

It only removes members from what the credential may already see, so it can't
unmask anything. An unknown name is a 400 that names it.

The document states the whole rule: the parameter's `pattern` lists the names a
value may hold, so a value a client builds from the document is never refused; names are
trimmed of spaces only (as the pattern says), empty items are ignored. A narrowed response
is documented by kit/fields_openapi.py.
"""

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any

from fastapi import Query

from homebase.kit import wire
from homebase.kit.errors import ValidationFailed

Projection = Callable[[Mapping[str, Any]], dict[str, Any]]
# pii_masked travels with id: without it a masked value cannot be told from a real one.
ALWAYS_INCLUDED = frozenset({"id", "pii_masked"})


def whole(payload: Mapping[str, Any]) -> dict[str, Any]:
    # Every payload is a dict (a TypedDict is one at run time): the whole one, not copied.
    return payload  # type: ignore[return-value]


def description(model: type[Any]) -> str:
    return (
        "Comma-separated allow-list of members to return; id is always included. "
        f"One of: {', '.join(sorted(wire.members(model)))}."
    )


# pattern -> the names it lists, for kit/fields_openapi.py (which members a response keeps).
ALLOWED_BY_PATTERN: dict[str, frozenset[str]] = {}


def pattern(allowed: frozenset[str] | type[Any]) -> str:
    """The regular expression (ECMA 262 and Python alike) of the values `projection`
    accepts: comma-separated items, each empty or one allowed name, spaces around them."""
    names = allowed if isinstance(allowed, frozenset) else frozenset(wire.members(allowed))
    name = "(?:" + "|".join(re.escape(item) for item in sorted(names)) + ")"
    result = f"^ *(?:{name} *)?(?:, *(?:{name} *)?)*$"
    ALLOWED_BY_PATTERN[result] = names
    return result


def example(model: type[Any]) -> str:
    """A `fields` value for the documentation: the model's first two members after id."""
    return ",".join([name for name in wire.members(model) if name != "id"][:2])


def selection(
    allowed: frozenset[str], fields: str | None, location: str = "query"
) -> frozenset[str] | None:
    """The members `fields` keeps (ALWAYS_INCLUDED with them), or None for every member;
    ValidationFailed naming unknown members (`location`: where `fields` was sent)."""
    if fields is None or not fields.strip(" "):
        return None
    # Spaces only: the documented pattern says " *", and a tab is no name.
    listed = [name.strip(" ") for name in fields.split(",")]
    names = {name for name in listed if name}
    # Named by position, never repeated: an error repeats no submitted value.
    unknown = [str(at) for at, name in enumerate(listed, start=1) if name and name not in allowed]
    if unknown:
        which = (
            f"names {', '.join(unknown)} of the list are not members"
            if unknown[1:]
            else f"name {unknown[0]} of the list is not a member"
        )
        raise ValidationFailed.for_fields(
            [("fields", f"name {at} of the list is not a member of the item") for at in unknown],
            location=location,
            type="unknown_field",
            summary=f"fields: {which} of the item",
        )
    return frozenset(names | ALWAYS_INCLUDED)


def projection(allowed: frozenset[str], fields: str | None, location: str = "query") -> Projection:
    """The projection `fields` asks for; ValidationFailed naming unknown members."""
    keep = selection(allowed, fields, location)
    if keep is None:
        return whole
    return lambda payload: {k: v for k, v in payload.items() if k in keep}


def field_selector(model: type[Any]) -> Callable[..., Awaitable[Projection]]:
    """A dependency that parses `fields` against the members of `model`."""
    allowed = frozenset(wire.members(model))

    # async: FastAPI would run a plain def dependency in its thread pool.
    async def dependency(
        fields: Annotated[
            str | None,
            Query(
                max_length=1000,
                description=description(model),
                examples=[example(model)],
                json_schema_extra={"pattern": pattern(allowed)},
            ),
        ] = None,
    ) -> Projection:
        return projection(allowed, fields)

    return dependency
