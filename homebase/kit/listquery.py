"""A list endpoint's whole query string (cursor, limit, fields and its filters) as one
dependency, validated by one pydantic model.

Declared the usual way (a Query model for the filters, page_request, field_selector),
FastAPI solves three dependencies and eight query parameters field by field on every
page request (docs/performance.md, "HTTP"). Here the dependency reads
`request.query_params` itself and validates everything in one `model_validate`; the
rules are the same (limit 1..200 default 50, fields against the item's members, the
filters' own constraints; the last of a repeated parameter wins, unknown ones are
ignored) and so are the errors (400 naming each failing query field). The parameters
are documented from the same model (`parameters`, passed as the route's openapi_extra).
"""

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field, ValidationError, create_model
from starlette.requests import Request

from homebase.kit import fields as fields_kit
from homebase.kit import wire
from homebase.kit.pagination import (
    CURSOR_DESCRIPTION,
    CURSOR_EXAMPLE,
    DEFAULT_LIMIT,
    MAX_LIMIT,
    PageRequest,
)
from homebase.kit.validation import validation_failed


@dataclass(frozen=True, slots=True)
class ListQuery:
    page: PageRequest
    fields: fields_kit.Projection
    filters: Any  # an instance of the endpoint's filters model, or None
    prefixed: dict[str, str] = field(default_factory=dict)  # `<prefix><name>` -> value


@dataclass(frozen=True, slots=True)
class Prefixed:
    """Parameters whose names the model cannot list: `<prefix><name>` (the contact and
    deal lists' `custom.<key>=value`, whose keys are the workspace's own). Collected by
    name into ListQuery.prefixed and checked only for shape here (`name_pattern`, at
    most `max_count` of them, values at most `max_length` characters, no U+0000): what
    the names mean is the endpoint's to check. The document cannot declare a dynamic name,
    so `description` goes into the operation's description."""

    prefix: str
    name_pattern: str
    max_count: int
    max_length: int
    description: str


class ListQueryParser:
    def __init__(
        self,
        item_model: type[Any],  # a wire type (kit/wire.py) or a pydantic model
        filters_model: type[BaseModel] | None,
        prefixed: Prefixed | None = None,
    ):
        self.filters_model = filters_model
        self.prefixed = prefixed
        self._prefixed_name = re.compile(prefixed.name_pattern) if prefixed else None
        self.filter_names = tuple(filters_model.model_fields) if filters_model else ()
        self.allowed = frozenset(wire.members(item_model))
        definitions: dict[str, Any] = {
            name: (info.annotation, info)
            for name, info in (filters_model.model_fields.items() if filters_model else ())
        }
        definitions["cursor"] = (
            str | None,
            Field(None, description=CURSOR_DESCRIPTION, examples=[CURSOR_EXAMPLE]),
        )
        definitions["limit"] = (
            int,
            Field(
                DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, description="Page size, 1 to 200.", examples=[50]
            ),
        )
        definitions["fields"] = (
            str | None,
            Field(
                None,
                max_length=1000,
                description=fields_kit.description(item_model),
                examples=[fields_kit.example(item_model)],
                json_schema_extra={"pattern": fields_kit.pattern(self.allowed)},
            ),
        )
        self.model = create_model(f"{item_model.__name__}ListQuery", **definitions)
        self.names = tuple(self.model.model_fields)
        self.parameters = self._parameters()

    def _parameters(self) -> list[dict[str, Any]]:
        schema = self.model.model_json_schema(ref_template="#/components/schemas/{model}")
        required = set(schema.get("required", ()))
        parameters = []
        for name, property_schema in schema["properties"].items():
            parameter = {
                "name": name,
                "in": "query",
                "required": name in required,
                "schema": property_schema,
            }
            if "description" in property_schema:
                parameter["description"] = property_schema["description"]
            parameters.append(parameter)
        return parameters

    async def __call__(self, request: Request) -> ListQuery:
        query = request.query_params
        values = {name: query[name] for name in self.names if name in query}
        try:
            parsed = self.model.model_validate(values)
        except ValidationError as error:
            raise validation_failed(
                [{**item, "loc": ("query", *item["loc"])} for item in error.errors()]
            ) from None
        filters = None
        if self.filters_model is not None:
            filters = self.filters_model.model_construct(
                **{name: getattr(parsed, name) for name in self.filter_names}
            )
        return ListQuery(
            PageRequest(parsed.cursor, parsed.limit),
            fields_kit.projection(self.allowed, parsed.fields),
            filters,
            self._prefixed(request) if self.prefixed is not None else {},
        )

    def _prefixed(self, request: Request) -> dict[str, str]:
        spec, pattern = self.prefixed, self._prefixed_name
        assert spec is not None and pattern is not None
        found = {
            name[len(spec.prefix) :]: value
            for name, value in request.query_params.items()
            if name.startswith(spec.prefix)
        }
        if not found:
            return found
        errors = []
        if len(found) > spec.max_count:
            errors.append(
                {
                    "loc": ("query", spec.prefix.rstrip(".")),
                    "msg": f"at most {spec.max_count} {spec.prefix}* parameters",
                    "type": "value_error",
                }
            )
        for name, value in found.items():
            shown = name if len(name) <= 64 else name[:64] + "..."
            problem = None
            if not pattern.fullmatch(name):
                problem = f"{spec.prefix}<name> must match {spec.name_pattern}"
            elif len(value) > spec.max_length:
                problem = f"must be at most {spec.max_length} characters"
            elif "\x00" in value:
                problem = "must not contain U+0000"
            if problem is not None:
                loc = ("query", f"{spec.prefix}{shown}")
                errors.append({"loc": loc, "msg": problem, "type": "value_error"})
        if errors:
            raise validation_failed(errors)
        return found
