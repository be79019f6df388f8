"""Wire types: what an endpoint sends, declared once per resource.

A resource's wire type is a `TypedDict` (typing_extensions', which pydantic reads on
Python 3.11): the route gives it to FastAPI as `response_model` (the OpenAPI document's
schema, with each member's `Field` description), and its render function returns it, so
mypy holds every payload against the document: a member sent that is not declared, one
declared and not sent, or one of the wrong type fails `make lint`. Nothing validates at
run time: the payload is a plain dict that orjson writes (kit/responses.py), as before.

Members hold what orjson writes: a moment is the `WireTime` string `kit.clock.isoformat`
makes (documented as `format: date-time`, as pydantic documents a datetime).
"""

from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, WithJsonSchema
from typing_extensions import is_typeddict

# An ISO 8601 time as kit.clock.isoformat writes it.
WireTime = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]
# A calendar date as `date.isoformat` writes it (documented as pydantic documents a date).
WireDate = Annotated[str, WithJsonSchema({"type": "string", "format": "date"})]


def is_wire_type(kind: object) -> bool:
    """A TypedDict: a payload mypy checks member by member."""
    return is_typeddict(kind)


def members(kind: type[Any]) -> tuple[str, ...]:
    """The member names of a wire type (a TypedDict) or a pydantic model, in order."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return tuple(kind.model_fields)
    if is_typeddict(kind):
        return tuple(kind.__annotations__)
    raise TypeError(f"{kind!r} is neither a TypedDict nor a pydantic model")


def json_schema(kind: type[Any]) -> dict[str, Any]:
    """The JSON schema pydantic makes of a wire type or a model (its examples included)."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind.model_json_schema()
    return TypeAdapter(kind).json_schema()


# A JSON object at a real boundary, shaped by someone else: a client's free-form member
# (a lead's context), a request's row before its checks (an import's rows), a provider's
# payload, a fixture's item, stored settings or evidence. Rows and payloads of our own are
# records and wire types; tests/test_typed_ratchet.py counts this name's uses apart.
JsonObject = dict[str, Any]
