from typing import Annotated

from fastapi import Depends, Query
from starlette.requests import Request

from homebase.appointments import render, repository, service
from homebase.appointments.schemas import (
    Appointment,
    AppointmentCreate,
    AppointmentFilters,
    AppointmentUpdate,
)
from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import CHANGES_NOTE, Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond

router = v1_router(prefix="/appointments", tags=["appointments"])

AppointmentsRead = Annotated[Principal, require(Scope.appointments_read)]
AppointmentsWrite = Annotated[Principal, require(Scope.appointments_write)]
AppointmentFields = Annotated[Projection, Depends(field_selector(Appointment))]
Pages = Annotated[PageRequest, Depends(page_request)]


@router.get(
    "",
    response_model=Page[Appointment],
    summary="List appointments",
    description="Newest booking first. Filters combine with AND." + CHANGES_NOTE,
    responses=error_responses(*READ_ERRORS),
)
async def list_appointments(
    request: Request,
    principal: AppointmentsRead,
    session: Tenant,
    page: Pages,
    fields: AppointmentFields,
    filters: Annotated[AppointmentFilters, Query()],
) -> Sent[PageBody[Appointment]]:
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, filters),
        filters=filters,
        updated_after=filters.updated_after,
        render=render.appointment,
        fields=fields,
    )


@router.post(
    "",
    status_code=201,
    response_model=Appointment,
    summary="Book an appointment",
    description="400 names contact_id, created_by or assignee_id when it is not one "
    "of this workspace's, and ends_at when it is not after starts_at. "
    "Emits appointment.booked, adds an appointment_booked entry to the "
    "contact's timeline, and queues a push to created_by's connected "
    "calendar; the push happens after the response, so a calendar that "
    "is down never fails or slows the booking.",
    responses=error_responses(*READ_ERRORS),
)
async def book_appointment(
    body: AppointmentCreate,
    principal: AppointmentsWrite,
    session: Tenant,
    fields: AppointmentFields,
) -> Sent[Appointment]:
    row = await service.book(session, body)
    return respond(render.appointment(row), fields, 201)


@router.get(
    "/{id}",
    response_model=Appointment,
    summary="Retrieve an appointment",
    responses=error_responses(*ONE_ERRORS),
)
async def get_appointment(
    id: str, principal: AppointmentsRead, session: Tenant, fields: AppointmentFields
) -> Sent[Appointment]:
    return respond(render.appointment(await service.get_or_404(session, id)), fields)


@router.patch(
    "/{id}",
    response_model=Appointment,
    summary="Reschedule or record an outcome",
    description="Move it with starts_at and ends_at together (one alone is 400 "
    "naming the other): emits appointment.rescheduled. Record what "
    "happened with outcome (showed, no_show, cancelled): emits "
    "appointment.outcome. Each adds a timeline entry. Changes the "
    "calendar shows (times, title, location, notes, cancellation) are "
    "pushed to the creator's calendar again, with the same UID.",
    responses=error_responses(*ONE_ERRORS),
)
async def update_appointment(
    id: str,
    body: AppointmentUpdate,
    principal: AppointmentsWrite,
    session: Tenant,
    fields: AppointmentFields,
) -> Sent[Appointment]:
    row = await service.update(session, id, patch=body)
    return respond(render.appointment(row), fields)
