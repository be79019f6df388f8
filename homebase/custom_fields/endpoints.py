from typing import Annotated

from fastapi import Depends, Path
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require_any
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.custom_fields import render, repository, service
from homebase.custom_fields.schemas import (
    CustomField,
    CustomFieldCreate,
    CustomFieldDeleted,
    CustomFieldFilters,
    CustomFieldUpdate,
)
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.errors import InsufficientScope
from homebase.kit.fields import Projection, field_selector
from homebase.kit.listquery import ListQuery, ListQueryParser
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import Page, PageBody
from homebase.kit.responses import Sent, respond

router = v1_router(prefix="/custom-fields", tags=["custom fields"])

READ = {"contacts": Scope.contacts_read, "deals": Scope.deals_read}
WRITE = {"contacts": Scope.contacts_write, "deals": Scope.deals_write}
# Each route admits either object's scope; the endpoint requires its object's (below).
Readers = Annotated[Principal, require_any(Scope.contacts_read, Scope.deals_read)]
Writers = Annotated[Principal, require_any(Scope.contacts_write, Scope.deals_write)]
FieldFields = Annotated[Projection, Depends(field_selector(CustomField))]
FieldId = Annotated[
    str,
    Path(
        description="The custom field's id. An unknown id, a deleted field's and another "
        "workspace's all answer 404.",
        examples=["cfd_01jd3v6k8h2k3m4n5p6q7r8s9t"],
    ),
]

_fields_query = ListQueryParser(CustomField, CustomFieldFilters)
FieldsQuery = Annotated[ListQuery, Depends(_fields_query)]

_SCOPES = (
    "Changing a field needs contacts:write for object contacts and deals:write for "
    "object deals (403 otherwise)."
)
WRITE_ERRORS = error_responses(*ONE_ERRORS, 409)


def _must(principal: Principal, scope: Scope) -> None:
    if not principal.has(scope):
        raise InsufficientScope(scope.value)


@router.get(
    "",
    response_model=Page[CustomField],
    summary="List custom fields",
    response_description="A page of live custom fields, newest first.",
    description="With `object`, that object's fields (its read scope: contacts:read or "
    "deals:read). Without it, the fields of every object the credential can read.",
    responses=error_responses(*READ_ERRORS),
    openapi_extra={"parameters": _fields_query.parameters},
)
async def list_custom_fields(
    request: Request, principal: Readers, session: Tenant, query: FieldsQuery
) -> Sent[PageBody[CustomField]]:
    wanted = query.filters.object
    if wanted is not None:
        _must(principal, READ[wanted.value])
        objects = [wanted.value]
    else:
        objects = [name for name, scope in READ.items() if principal.has(scope)]
    fields = query.fields
    return await paginate(
        request,
        session,
        query.page,
        repository.listing(session, objects),
        filters={"object": ",".join(objects)},
        render=render.custom_field,
        fields=fields,
    )


@router.post(
    "",
    status_code=201,
    response_model=CustomField,
    summary="Create a custom field",
    response_description="The new custom field.",
    description=_SCOPES + " 409 when the object has a live field with this key, or "
    "already has 100 live fields.",
    responses=error_responses(*READ_ERRORS, 409),
)
async def create_custom_field(
    body: CustomFieldCreate, principal: Writers, session: Tenant, fields: FieldFields
) -> Sent[CustomField]:
    _must(principal, WRITE[body.root.object.value])
    row = await service.create_field(session, body.root)
    return respond(render.custom_field(row), fields, 201)


@router.get(
    "/{id}",
    response_model=CustomField,
    summary="Retrieve a custom field",
    response_description="The custom field.",
    description="Needs the read scope of the field's object.",
    responses=error_responses(*ONE_ERRORS),
)
async def get_custom_field(
    id: FieldId, principal: Readers, session: Tenant, fields: FieldFields
) -> Sent[CustomField]:
    row = await service.get_or_404(session, id)
    _must(principal, READ[row["object"]])
    return respond(render.custom_field(row), fields)


@router.patch(
    "/{id}",
    response_model=CustomField,
    summary="Update a custom field",
    response_description="The custom field as updated.",
    description=_SCOPES + " label and a select's choices change; key, object and type "
    "never do. Removing a choice some record holds is 409 (details.choices_in_use).",
    responses=WRITE_ERRORS,
)
async def update_custom_field(
    id: FieldId,
    body: CustomFieldUpdate,
    principal: Writers,
    session: Tenant,
    fields: FieldFields,
) -> Sent[CustomField]:
    current = await service.get_or_404(session, id)
    _must(principal, WRITE[current["object"]])
    row = await service.update_field(session, id, patch=body)
    return respond(render.custom_field(row), fields)


@router.delete(
    "/{id}",
    response_model=CustomFieldDeleted,
    summary="Delete a custom field",
    response_description="The field is deleted.",
    description=_SCOPES + " The field goes at once: no record renders its values from "
    "now on, filters no longer know its key, and the key is free for a new field (which "
    "starts with no values). The stored values are removed in the background.",
    responses=error_responses(*ONE_ERRORS),
)
async def delete_custom_field(
    id: FieldId, principal: Writers, session: Tenant
) -> Sent[CustomFieldDeleted]:
    current = await service.get_or_404(session, id)
    _must(principal, WRITE[current["object"]])
    await service.delete_field(session, id)
    return respond(CustomFieldDeleted(id=id, deleted=True))
