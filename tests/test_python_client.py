"""The generated Python client (clients/python, `make client`).

- The checked-in package is what `make client` makes from today's code, and regenerating
  leaves the hand-written files beside it alone.
- Every /v1 operation of the served document is driven through the client against a live
  `homebase serve` (SQLite; the document is the same on PostgreSQL), and each 2xx answer
  parses into the model the document names: the proof that the document is true. A new
  operation fails the test until it is driven here.
- The hand-written verifier (clients/python/homebase_webhooks.py) accepts deliveries made
  by the server's real worker, and refuses them altered, under another secret, or late.
"""

import importlib
import shutil
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from homebase_client import AuthenticatedClient
from homebase_client.models import (
    AppointmentCreate,
    AppointmentUpdate,
    AssignRequest,
    CampaignEnrollRequest,
    ContactCreate,
    ContactExportFilters,
    ContactsExportCreate,
    ContactsExportCreateObject,
    ContactsImportCreate,
    ContactsImportCreateRowsItem,
    ContactStage,
    ContactUpdate,
    CustomFieldObject,
    CustomFieldUpdate,
    CustomPlainFieldCreate,
    CustomPlainFieldCreateType,
    CustomSelectFieldCreate,
    CustomSelectFieldCreateType,
    DealCreate,
    DealUpdate,
    EmailSend,
    EmailSendChannel,
    EnrollRequest,
    LeadCreate,
    NoteCreate,
    PreviewRequest,
    TaskCreate,
    WebhookCreate,
    WebhookCreateEventTypesItem,
    WebhookUpdate,
)
from homebase_webhooks import SignatureMismatch, sign, verify

from scripts import client as make_client
from tests.served_support import serve
from tests.support import until
from tests.webhook_receiver import Receiver

# One worker runs this module (make test: --dist loadgroup), so its module-scoped server
# starts once, not on every worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("python_client")

FRAMEWORK_PATHS = ("/v1/openapi.json", "/v1/docs")


# The checked-in client


def test_the_checked_in_client_is_current_and_regeneration_keeps_hand_written_files(tmp_path):
    copy = tmp_path / "python"
    shutil.copytree(
        make_client.CLIENT_DIR, copy, ignore=shutil.ignore_patterns("__pycache__", ".ruff_cache")
    )
    hand_written = {
        path.relative_to(copy): path.read_bytes() for path in copy.iterdir() if path.is_file()
    }
    assert {"homebase_webhooks.py", "README.md", "pyproject.toml"} <= {
        str(path) for path in hand_written
    }
    # A leftover module is removed: the package is exactly what the generator writes.
    (copy / make_client.PACKAGE / "api" / "stale_module.py").write_text("")

    make_client.regenerate(copy / make_client.PACKAGE)  # refuses any generator warning

    assert {
        path.relative_to(copy): path.read_bytes() for path in copy.iterdir() if path.is_file()
    } == hand_written
    stale = make_client.differences(
        make_client.CLIENT_DIR / make_client.PACKAGE, copy / make_client.PACKAGE
    )
    assert stale == [], (
        f"clients/python/homebase_client is stale; run make client. Differs: {stale}"
    )


# A live server


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`homebase serve` with its in-process worker (webhook deliveries to loopback), and
    the demo workspace (`admin seed-demo`: members, pipelines, listings, calls,
    automations, personas, campaigns) with its every-scope key, and the served document."""
    folder = tmp_path_factory.mktemp("served")
    with serve(
        folder,
        worker=True,
        webhook_allow_private_urls="true",
        worker_poll_seconds="0.2",
        sync_settle_seconds="0",
    ) as server:
        demo = server.admin("seed-demo")
        # The first request builds the document (about 1.6 s of CPU): more than httpx's
        # default 5 s on a loaded two-core machine.
        document = httpx.get(f"{server.base_url}/v1/openapi.json", timeout=60).json()
        yield server, demo, document


def api_client(served) -> AuthenticatedClient:
    server, demo, _ = served
    return AuthenticatedClient(
        base_url=server.base_url,
        token=demo["api_key"]["key"],
        prefix="token",
        raise_on_unexpected_status=True,
        timeout=httpx.Timeout(30),
    )


def class_name(component: str) -> str:
    """openapi-python-client's class for a component: Page_Contact_ -> PageContact."""
    return "".join(part[:1].upper() + part[1:] for part in component.split("_"))


def named_schema(schema: dict[str, Any]) -> str:
    """The component a response names: its $ref, or for `fields` answers
    (anyOf [Record, RecordNarrowed]) the whole record, which an answer without `fields`
    must parse as."""
    ref = schema.get("$ref") or schema["anyOf"][0]["$ref"]
    return ref.rsplit("/", 1)[-1]


class Driver:
    """Calls operations through the generated client by operation id (its module name),
    checks each answer is a documented 2xx parsed into the documented model, and records
    what it called."""

    def __init__(self, client: AuthenticatedClient, document: dict[str, Any]):
        self.client = client
        self.document = document
        self.operations = {
            operation["operationId"]: operation
            for path, item in document["paths"].items()
            if path.startswith("/v1/") and not path.startswith(FRAMEWORK_PATHS)
            for operation in item.values()
        }
        self.called: set[str] = set()

    async def __call__(self, operation_id: str, **arguments: Any) -> Any:
        operation = self.operations[operation_id]
        module = importlib.import_module(
            # The generator's package for a tag: snake case ("custom fields" -> custom_fields).
            f"homebase_client.api.{operation['tags'][0].replace(' ', '_')}.{operation_id}"
        )
        response = await module.asyncio_detailed(client=self.client, **arguments)
        assert 200 <= response.status_code < 300, (
            operation_id,
            response.status_code,
            response.content[:500],
        )
        schema = operation["responses"][str(response.status_code)]["content"]["application/json"][
            "schema"
        ]
        component = named_schema(schema)
        parsed = response.parsed
        assert type(parsed).__name__ == class_name(component), (operation_id, parsed)
        # Nothing in the answer that the document does not name.
        assert parsed.additional_properties == {}, (operation_id, parsed.additional_properties)
        items = (
            self.document["components"]["schemas"][component]
            .get("properties", {})
            .get("data", {})
            .get("items")
        )
        if items is not None:  # a page: every item is the whole record
            assert isinstance(parsed.data, list)
            for item in parsed.data:
                assert type(item).__name__ == class_name(named_schema(items)), operation_id
                assert item.additional_properties == {}, (operation_id, item)
        self.called.add(operation_id)
        return parsed


async def test_every_v1_operation_through_the_generated_client(served):
    _, demo, document = served
    receiver = await Receiver().start()
    try:
        async with api_client(served) as client:
            call = Driver(client, document)
            await drive_every_operation(call, demo, receiver)
    finally:
        await receiver.stop()
    assert len(call.operations) >= 46
    assert set(call.operations) - call.called == set(), "operations not driven here"


async def drive_every_operation(call: Driver, demo: dict, receiver: Receiver) -> None:
    member = demo["created"]["members"][0]
    now = datetime.now(UTC)
    await call("ping")

    hook = await call(
        "create_webhook",
        body=WebhookCreate(
            url=receiver.url, event_types=[WebhookCreateEventTypesItem.CONTACT_CREATED]
        ),
    )
    assert hook.secret.startswith("whsec_")
    await call("get_webhook", id=hook.id)
    same = await call("update_webhook", id=hook.id, body=WebhookUpdate(url=receiver.url))
    assert same.url == receiver.url
    await call("list_webhooks")

    contact = await call(
        "create_contact",
        body=ContactCreate(
            first_name="Ana", last_name="Client", email="ana@example.com", tags=["buyer"]
        ),
    )
    warned = await call("create_contact", body=ContactCreate(phone="555-CALL-NOW"))
    assert [item.field for item in warned.warnings] == ["phone"]
    await call("get_contact", id=contact.id)
    updated = await call(
        "update_contact", id=contact.id, body=ContactUpdate(stage=ContactStage.HOT_LEAD)
    )
    assert updated.stage == ContactStage.HOT_LEAD
    await call("add_contact_note", id=contact.id, body=NoteCreate(body="Prefers email."))
    paused = await call("pause_contact_ai", id=contact.id)  # the note paused it already
    assert paused.ai_auto_response_paused and paused.ai_auto_response_paused_reason == "note"
    resumed = await call("resume_contact_ai", id=contact.id)
    assert not resumed.ai_auto_response_paused and resumed.ai_auto_response_paused_reason is None
    await call("list_contact_events", id=contact.id)
    await call("list_contact_notes", id=contact.id)
    await call("list_contacts", limit=2)

    message = await call(
        "send_message",
        body=EmailSend(
            channel=EmailSendChannel.EMAIL,
            contact_id=contact.id,
            subject="Welcome",
            body="Hello Ana",
        ),
    )
    await call("get_message", id=message.id)
    taken_over = await call("get_contact", id=contact.id)  # a person's message pauses the AI
    assert taken_over.ai_auto_response_paused_reason == "human_message"
    await call("list_messages", contact_id=contact.id)

    lead = await call(
        "create_lead", body=LeadCreate(phone="+14155550177", source="Zillow", first_name="Lee")
    )
    await call("get_lead", id=lead.id)
    await call("list_leads")
    await call("preview_lead_routing", body=PreviewRequest(source="Zillow"))
    await call("assign_lead", id=lead.id, body=AssignRequest(assignee_id=member))

    calls = await call("list_calls")
    await call("get_call", id=calls.data[0].id)

    pipelines = await call("list_pipelines")
    pipeline = pipelines.data[0]
    deal = await call(
        "create_deal",
        body=DealCreate(pipeline_id=pipeline.id, title="Ana's purchase", contact_id=contact.id),
    )
    await call("get_deal", id=deal.id)
    await call("update_deal", id=deal.id, body=DealUpdate(stage_id=pipeline.stages[1].id))
    await call("list_deals")
    await call("list_listings")
    members = await call("list_members")
    assert member in [item.id for item in members.data]

    appointment = await call(
        "book_appointment",
        body=AppointmentCreate(
            contact_id=contact.id,
            title="Tour",
            starts_at=now + timedelta(days=1),
            ends_at=now + timedelta(days=1, hours=1),
        ),
    )
    await call("get_appointment", id=appointment.id)
    await call(
        "update_appointment", id=appointment.id, body=AppointmentUpdate(location="1421 Sanchez St")
    )
    await call("list_appointments")

    task = await call(
        "create_task", body=TaskCreate(title="Call Ana", contact_id=contact.id, assignee_id=member)
    )
    await call("get_task", id=task.id)
    await call("list_tasks")

    automations = await call("list_automations")
    automation = next(automation for automation in automations.data if automation.enabled)
    await call("get_automation", id=automation.id)
    await call("enroll_contact", id=automation.id, body=EnrollRequest(contact_id=contact.id))
    await call("list_automation_enrolments", id=automation.id)
    personas = await call("list_personas")
    await call("get_persona", id=personas.data[0].id)
    campaigns = await call("list_campaigns")
    await call("get_campaign", id=campaigns.data[0].id)
    await call(
        "enroll_campaign_contacts",
        id=campaigns.data[0].id,
        body=CampaignEnrollRequest(contact_ids=[contact.id]),
    )
    await call("list_campaign_contacts", id=campaigns.data[0].id)
    await call("get_ai_stats", persona_id=personas.data[0].id)

    field = await call(
        "create_custom_field",
        body=CustomPlainFieldCreate(
            object_=CustomFieldObject.CONTACTS,
            key="price_max",
            label="Price",
            type_=CustomPlainFieldCreateType.NUMBER,
        ),
    )
    select = await call(
        "create_custom_field",
        body=CustomSelectFieldCreate(
            object_=CustomFieldObject.DEALS,
            key="financing",
            label="Financing",
            type_=CustomSelectFieldCreateType.SINGLE_SELECT,
            choices=["cash", "fha"],
        ),
    )
    assert select.choices == ["cash", "fha"]
    await call("get_custom_field", id=field.id)
    await call("update_custom_field", id=field.id, body=CustomFieldUpdate(label="Max price"))
    await call("list_custom_fields")
    await call("delete_custom_field", id=field.id)

    row = ContactsImportCreateRowsItem.from_dict(
        {"first_name": "Imported", "email": "imp@example.com"}
    )
    started = await call(
        "create_import", body=ContactsImportCreate(object_="contacts", rows=[row, row])
    )
    await call("list_imports")

    async def import_done():
        job = await call("get_import", id=started.id)
        return job if job.status.value == "completed" else None

    await until(import_done, 60)
    await call("list_import_errors", id=started.id)

    export = await call(
        "create_export",
        body=ContactsExportCreate(
            object_=ContactsExportCreateObject.CONTACTS,
            filters=ContactExportFilters(updated_after=datetime(2000, 1, 1, tzinfo=UTC)),
        ),
    )
    await call("list_exports")

    async def export_done():
        made = await call("get_export", id=export.id)
        return made if made.status.value == "completed" else None

    assert (await until(export_done, 60)).download_url

    # Served once settled (HOMEBASE_SYNC_SETTLE_SECONDS, 0 here): contact.created at least.
    events = await call("list_events")
    assert events.data
    await call("get_event", id=events.data[0].data.event_id)

    # The worker delivered contact.created; once it has recorded the outcome, redeliver.
    await receiver.wait_for(1)

    async def finished_delivery():
        page = await call("list_webhook_deliveries", id=hook.id)
        return next((d for d in page.data if d.status.value == "succeeded"), None)

    delivery = await until(finished_delivery, 60)
    await call("redeliver_webhook_delivery", id=hook.id, delivery_id=delivery.id)
    await receiver.wait_for(2)
    await call("delete_webhook", id=hook.id)
    erased = await call("delete_contact", id=contact.id)
    assert erased.id == contact.id


# The webhook verifier, against real deliveries


def test_the_verifier_signs_as_the_documented_example():
    # docs/webhooks.md: GitHub's example; the same bytes the server's signer produces.
    assert sign("It's a Secret to Everybody", b"Hello, World!") == (
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
    )


async def test_real_deliveries_verify_and_altered_ones_do_not(served):
    receiver = await Receiver().start()
    try:
        async with api_client(served) as client:
            call = Driver(client, served[2])
            hook = await call(
                "create_webhook",
                body=WebhookCreate(
                    url=receiver.url, event_types=[WebhookCreateEventTypesItem.CONTACT_CREATED]
                ),
            )
            for name in ("Bo", "Cy"):
                await call("create_contact", body=ContactCreate(first_name=name))
            deliveries = await receiver.wait_for(2)
            await call("delete_webhook", id=hook.id)
    finally:
        await receiver.stop()

    secret = hook.secret
    for delivery in deliveries:
        body, headers = delivery.body, delivery.headers  # names lower-cased by the receiver
        timestamp = int(headers["webhook-timestamp"])
        verify(secret, body, headers)  # fresh: within five minutes of now
        verify(secret, body, headers, now=timestamp + 299)
        verify(secret, body, headers, tolerance_seconds=None, now=timestamp + 10**6)
        verify(secret, body, {name.title(): value for name, value in headers.items()})

        with pytest.raises(SignatureMismatch, match="X-Webhook-Signature does not match"):
            verify(secret, body.replace(b'"Bo"', b'"Al"').replace(b'"Cy"', b'"Al"'), headers)
        with pytest.raises(SignatureMismatch, match="X-Webhook-Signature does not match"):
            verify(secret + "x", body, headers)
        with pytest.raises(SignatureMismatch, match="at most 300 s"):
            verify(secret, body, headers, now=timestamp + 301)
        with pytest.raises(SignatureMismatch, match="at most 300 s"):
            verify(secret, body, headers, now=timestamp - 301)  # from the future
        # A captured delivery sent again later with a fresh timestamp: its Standard
        # Webhooks signature no longer matches.
        with pytest.raises(SignatureMismatch, match="webhook-signature does not match"):
            verify(
                secret,
                body,
                {**headers, "webhook-timestamp": str(timestamp + 600)},
                now=timestamp + 600,
            )
        with pytest.raises(SignatureMismatch, match="missing or not Unix seconds"):
            verify(
                secret,
                body,
                {key: value for key, value in headers.items() if key != "webhook-timestamp"},
            )
        with pytest.raises(TypeError):
            verify(secret, body.decode(), headers)  # type: ignore[arg-type]
