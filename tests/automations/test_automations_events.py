"""document.signed and saved_search.sent: v1 has no feature that causes them, so the
operator command `homebase admin emit-event` emits them, with validated data."""

import json

import pytest

from homebase.db.tenancy import TenantSession
from homebase.external_events.service import emit_external
from homebase.kit.clock import isoformat
from homebase.kit.errors import AdminError
from tests.automations_support import contact, events, frozen
from tests.crm_support import create_deal


async def _emit(runtime, workspace_id: str, event_type: str, data) -> dict:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock, actor="admin")
        return await emit_external(session, event_type, raw=data)


async def test_document_signed_is_emitted_with_its_data_and_a_timeline_entry(runtime, tenant):
    deal_id = await create_deal(tenant)
    contact_id = (await tenant.get(f"/v1/deals/{deal_id}")).json()["contact_id"]
    result = await _emit(
        runtime,
        tenant.id,
        "document.signed",
        {
            "document_id": "env_123",
            "name": "Purchase agreement",
            "deal_id": deal_id,
            "contact_id": contact_id,
            "signer_name": "Dana Reyes",
            "signed_at": "2026-11-20T17:00:00Z",
        },
    )
    [data] = await events(runtime, tenant.id, "document.signed")
    assert (
        data
        == result["data"]
        == {
            "document_id": "env_123",
            "name": "Purchase agreement",
            "deal_id": deal_id,
            "contact_id": contact_id,
            "signer_name": "Dana Reyes",
            "signed_at": "2026-11-20T17:00:00.000Z",
        }
    )
    timeline = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    assert "Document signed: Purchase agreement" in {item.get("title") for item in timeline}


async def test_saved_search_sent_defaults_its_time(runtime, tenant):
    clock = frozen(runtime)
    contact_id = await contact(tenant)
    result = await _emit(
        runtime,
        tenant.id,
        "saved_search.sent",
        {"saved_search_id": "ss_1", "name": "3-bed Noe Valley", "contact_id": contact_id},
    )
    assert result["data"]["sent_at"] == isoformat(clock())
    assert result["data"]["channel"] == "EMAIL" and result["data"]["listing_ids"] == []
    assert len(await events(runtime, tenant.id, "saved_search.sent")) == 1


@pytest.mark.parametrize(
    "event_type, data, message",
    [
        ("contact.created", {}, "--type must be one of"),
        ("document.signed", {"document_id": "d"}, "data.name: Field required"),
        ("document.signed", {"document_id": "d", "name": "n", "color": 1}, "data.color"),
        ("saved_search.sent", {"saved_search_id": "s", "name": "n"}, "data.contact_id"),
        (
            "saved_search.sent",
            {"saved_search_id": "s", "name": "n", "contact_id": "con_x", "channel": "FAX"},
            "data.channel",
        ),
        ("document.signed", [], "data.data"),
    ],
)
async def test_invalid_data_is_refused_naming_the_field(runtime, tenant, event_type, data, message):
    with pytest.raises(AdminError, match=message.replace(".", r"\.")):
        await _emit(runtime, tenant.id, event_type, data)


async def test_another_workspaces_objects_are_refused_and_nothing_is_emitted(
    runtime, tenant, other_tenant
):
    foreign = await contact(other_tenant)
    with pytest.raises(AdminError, match="data.contact_id"):
        await _emit(
            runtime,
            tenant.id,
            "saved_search.sent",
            {"saved_search_id": "s", "name": "n", "contact_id": foreign},
        )
    with pytest.raises(AdminError, match="data.listing_ids.0"):
        await _emit(
            runtime,
            tenant.id,
            "saved_search.sent",
            {
                "saved_search_id": "s",
                "name": "n",
                "contact_id": await contact(tenant),
                "listing_ids": ["lst_nope"],
            },
        )
    with pytest.raises(AdminError, match="data.deal_id"):
        await _emit(
            runtime,
            tenant.id,
            "document.signed",
            {"document_id": "d", "name": "n", "deal_id": await create_deal(other_tenant)},
        )
    assert await events(runtime, tenant.id, "saved_search.sent") == []
    assert await events(runtime, tenant.id, "document.signed") == []


def test_the_operator_command(tmp_path):
    from tests.cli.test_cli import Cli

    cli = Cli(tmp_path)
    cli.quick("migrate")
    workspace = cli.quick("admin", "create-workspace", "--name", "Events Realty")
    printed = cli.quick(
        "admin",
        "emit-event",
        "--workspace",
        workspace["id"],
        "--type",
        "document.signed",
        "--data",
        json.dumps({"document_id": "d1", "name": "Listing agreement"}),
    )
    assert printed["type"] == "document.signed" and printed["event_id"].startswith("evt_")
    assert printed["data"]["name"] == "Listing agreement"
    assert cli.count("outbox_events", workspace["id"]) == 1
    refused = cli.in_process(
        "admin",
        "emit-event",
        "--workspace",
        workspace["id"],
        "--type",
        "saved_search.sent",
        "--data",
        "{not json",
    )
    assert refused.returncode != 0 and refused.stdout == ""
    assert "--data is not JSON" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert cli.count("outbox_events", workspace["id"]) == 1
