"""Typed from table to wire (AGENTS.md, "Typed rows and wire types").

- Every /v1 endpoint of a typed resource (TYPED) answers a `Sent[W]`, W being the wire
  type (a TypedDict) its route documents as response_model, or `Sent[PageBody[W]]` for a
  `Page[W]`: mypy then holds what the endpoint sends against the document, so an
  endpoint returning an untyped payload (a bare JSONResponse, a dict) fails here.
- Every record of a table (RECORDS) names exactly the table's columns (the workspace
  aside: it is the session's), each nullable exactly when its column is.
- FastAPI documents a wire type as it documented the pydantic model it replaced: held by
  the generated clients' tests (`make client` shows no change).
"""

import inspect
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest
from sqlalchemy import Table
from typing_extensions import is_typeddict

from homebase.ai.records import ActionRecord, AiJobRecord, OutreachRecord
from homebase.appointments.records import AppointmentRecord
from homebase.automations.records import (
    AutomationRecord,
    CampaignEnrolmentRecord,
    CampaignRecord,
    DncRegistrationRecord,
    EnrolmentRecord,
    PersonaRecord,
    StepRunRecord,
)
from homebase.calls.records import CallRecord, RevocationRecord
from homebase.contacts.records import ContactRecord, TimelineRecord
from homebase.custom_fields.records import CustomFieldRecord, ValueRecord
from homebase.deals.records import DealRecord, PipelineRecord, StageRecord
from homebase.imports.records import ImportErrorRecord, NewImport
from homebase.imports.schemas import ImportCreate
from homebase.kit.pagination import Page, PageBody
from homebase.kit.responses import JSONResponse, Sent
from homebase.leads.records import LeadRecord
from homebase.leads.schemas import Lead as LeadWire
from homebase.listings.records import ListingRecord
from homebase.messaging.records import MessageRecord, SenderNumberRecord, SuppressionRecord
from homebase.models import (
    AiAction,
    AiJob,
    AiOutreach,
    Appointment,
    Automation,
    AutomationEnrolment,
    AutomationStepRun,
    Call,
    CallRevocation,
    Campaign,
    CampaignEnrolment,
    CustomField,
    CustomFieldValue,
    DataImport,
    Deal,
    DncRegistration,
    ImportRowError,
    Lead,
    Listing,
    Message,
    Persona,
    Pipeline,
    PipelineStage,
    SenderNumber,
    Suppression,
    Task,
    TimelineEvent,
    WebhookAttempt,
    WebhookDelivery,
    WebhookSubscription,
)
from homebase.models import Contact as ContactModel
from homebase.tasks.records import TaskRecord
from homebase.tasks.schemas import Task as TaskWire
from homebase.webhooks.records import AttemptRecord, DeliveryRecord, SubscriptionRecord
from tests.test_routes import build_offline_app, v1_routes

# The resources typed from table to wire: their endpoints modules.
TYPED = (
    "homebase.ai.endpoints",
    "homebase.appointments.endpoints",
    "homebase.calls.endpoints",
    "homebase.contacts.endpoints",
    "homebase.custom_fields.endpoints",
    "homebase.deals.endpoints",
    "homebase.imports.endpoints",
    "homebase.leads.endpoints",
    "homebase.messaging.endpoints",
    "homebase.tasks.endpoints",
    "homebase.webhooks.endpoints",
)

RECORDS: dict[Any, type[Any]] = {
    AiJobRecord: AiJob,
    OutreachRecord: AiOutreach,
    ActionRecord: AiAction,
    AppointmentRecord: Appointment,
    AutomationRecord: Automation,
    PersonaRecord: Persona,
    CampaignRecord: Campaign,
    CampaignEnrolmentRecord: CampaignEnrolment,
    DncRegistrationRecord: DncRegistration,
    EnrolmentRecord: AutomationEnrolment,
    StepRunRecord: AutomationStepRun,
    ListingRecord: Listing,
    CallRecord: Call,
    CustomFieldRecord: CustomField,
    ValueRecord: CustomFieldValue,
    RevocationRecord: CallRevocation,
    ContactRecord: ContactModel,
    TimelineRecord: TimelineEvent,
    DealRecord: Deal,
    PipelineRecord: Pipeline,
    StageRecord: PipelineStage,
    LeadRecord: Lead,
    TaskRecord: Task,
    MessageRecord: Message,
    SuppressionRecord: Suppression,
    SenderNumberRecord: SenderNumber,
    NewImport: DataImport,
    ImportErrorRecord: ImportRowError,
    SubscriptionRecord: WebhookSubscription,
    DeliveryRecord: WebhookDelivery,
    AttemptRecord: WebhookAttempt,
}


def _typed_routes() -> list[Any]:
    routes = [
        route
        for route in v1_routes(build_offline_app())
        if route.endpoint.__module__ in TYPED and route.original_route is not None
    ]
    assert {route.endpoint.__module__ for route in routes} == set(TYPED)
    return routes


def _page_item(model: Any) -> Any:
    """W of a Page[W], else None."""
    if isinstance(model, type) and issubclass(model, Page):
        args = model.__pydantic_generic_metadata__["args"]
        return args[0] if args else None
    return None


def _untyped(endpoint: Any, model: Any) -> str | None:
    """Why `endpoint`, documented as answering `model`, sends no typed payload, or None."""
    sent = get_type_hints(endpoint)["return"]
    item = _page_item(model)
    wire = item if item is not None else model
    expected: Any = Sent[PageBody[item]] if item is not None else Sent[model]  # type: ignore[valid-type]
    name = f"{endpoint.__module__}.{endpoint.__name__}"
    if not is_typeddict(wire):
        return f"{name}: response_model {model!r} is no wire type (a TypedDict)"
    if sent != expected:
        return f"{name}: returns {sent!r}, its document says {expected!r}"
    return None


def test_every_endpoint_of_a_typed_resource_sends_its_documented_wire_type() -> None:
    found = [
        _untyped(route.endpoint, route.original_route.response_model) for route in _typed_routes()
    ]
    untyped = [why for why in found if why is not None]
    assert not untyped, "\n".join(untyped)


async def _bare() -> JSONResponse:
    return JSONResponse({})


async def _documented_by_a_model() -> Sent[Any]:
    return Sent({})


def test_the_check_refuses_an_untyped_endpoint() -> None:
    """What the test above refuses: an endpoint answering a bare JSONResponse, one whose
    Sent names another type than its document, one documented by a pydantic model (which
    nothing holds a dict against)."""
    assert _untyped(_bare, LeadWire) is not None
    assert _untyped(_bare, Page[LeadWire]) is not None
    assert _untyped(_documented_by_a_model, TaskWire) is not None
    assert _untyped(_documented_by_a_model, ImportCreate) is not None
    route = next(route for route in _typed_routes() if route.endpoint.__name__ == "get_lead")
    assert _untyped(route.endpoint, route.original_route.response_model) is None


def _nullable(hint: Any) -> bool:
    return get_origin(hint) in (Union, UnionType) and NoneType in get_args(hint)


@pytest.mark.parametrize("record", list(RECORDS), ids=lambda record: record.__name__)
def test_a_record_names_its_tables_columns(record: Any) -> None:
    table: Table = RECORDS[record].__table__
    hints = get_type_hints(record)
    columns = {column.key: column for column in table.columns if column.key != "workspace_id"}
    assert set(hints) == set(columns), (
        f"{record.__name__}: missing {sorted(set(columns) - set(hints))}, "
        f"not columns {sorted(set(hints) - set(columns))}"
    )
    wrong = [name for name, column in columns.items() if _nullable(hints[name]) != column.nullable]
    assert not wrong, f"{record.__name__}: nullable unlike the column: {wrong}"


def test_records_and_wire_types_are_typed_dicts_only() -> None:
    """No cost at run time: a record and a wire type are dicts (no class to build)."""
    for record in RECORDS:
        assert is_typeddict(record)
        assert inspect.isclass(record)


def test_a_list_page_reads_what_its_row_type_names() -> None:
    """The contact list's partial read (render.PAGE_COLUMNS, what repository.page_columns
    selects) is ContactPageRow, member for member (derived from it: written once), and
    is a Contact's members in its order (the render makes the row the Contact in place),
    each a column of the table but the two the render sets and the two the wire renames."""
    from homebase.contacts.records import ContactPageRow
    from homebase.contacts.render import PAGE_COLUMNS
    from homebase.contacts.repository import _COLUMN_OF, _SET_BY_RENDER, page_columns
    from homebase.contacts.schemas import Contact

    assert tuple(get_type_hints(ContactPageRow)) == PAGE_COLUMNS
    assert tuple(get_type_hints(Contact)) == PAGE_COLUMNS
    read = {_COLUMN_OF.get(name, name) for name in PAGE_COLUMNS} - set(_SET_BY_RENDER)
    assert read <= set(ContactModel.__table__.columns.keys())
    for dialect in ("sqlite", "postgresql"):
        session = type("Session", (), {"dialect": dialect})()
        assert tuple(column.key for column in page_columns(session)) == PAGE_COLUMNS
