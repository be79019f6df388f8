"""Catalogue events are written to the outbox in the same transaction as the change, with a
stable id, masked phones, and nothing for a request that failed."""

from sqlalchemy import select

from homebase.models import OutboxEvent
from homebase.webhooks import render as webhook_render

outbox = OutboxEvent.__table__


async def events(runtime, workspace_id):
    async with runtime.db.transaction(write=False) as connection:
        rows = (
            (
                await connection.execute(
                    select(outbox)
                    .where(outbox.c.workspace_id == workspace_id)
                    .order_by(outbox.c.id)
                )
            )
            .mappings()
            .all()
        )
    # The data as a webhook delivery carries it (stored whole, masked as it leaves).
    return [{**row, "data": webhook_render.masked(row["data"])} for row in rows]


async def test_create_emits_created_and_tag_added(tenant, runtime):
    created = (
        await tenant.post(
            "/v1/contacts",
            json={
                "first_name": "Dana",
                "phone": "+1 415 555 0142",
                "email": "dana@example.com",
                "tags": ["buyer", "vip"],
            },
        )
    ).json()
    rows = await events(runtime, tenant.id)
    assert [row["type"] for row in rows] == [
        "contact.created",
        "contact.tag_added",
        "contact.tag_added",
    ]
    assert all(row["id"].startswith("evt_") for row in rows)
    data = rows[0]["data"]
    assert data["id"] == created["id"]
    assert data["phone"] == "+* *** *** 0142" and data["email"] == "d***@example.com"
    assert data["pii_masked"] is True
    assert [row["data"]["tag"] for row in rows[1:]] == ["buyer", "vip"]
    assert all(row["dispatched_at"] is None for row in rows)


async def test_update_emits_updated_stage_changed_and_new_tags_only(tenant, runtime):
    contact = (await tenant.post("/v1/contacts", json={"tags": ["buyer"]})).json()
    before = len(await events(runtime, tenant.id))
    await tenant.patch(
        f"/v1/contacts/{contact['id']}",
        json={"stage": "HOT_LEAD", "tags": ["buyer", "vip"], "phone": "4155550142"},
    )
    rows = (await events(runtime, tenant.id))[before:]
    assert [row["type"] for row in rows] == [
        "contact.updated",
        "contact.stage_changed",
        "contact.tag_added",
    ]
    assert rows[0]["data"]["changed"] == ["phone", "stage", "tags"]
    assert rows[0]["data"]["phone"] == "******0142"
    assert rows[1]["data"] == {"id": contact["id"], "previous_stage": "LEAD", "stage": "HOT_LEAD"}
    assert rows[2]["data"]["tag"] == "vip"


async def test_no_op_update_emits_nothing(tenant, runtime):
    contact = (await tenant.post("/v1/contacts", json={"first_name": "Same"})).json()
    before = await events(runtime, tenant.id)
    response = await tenant.patch(f"/v1/contacts/{contact['id']}", json={"first_name": "Same"})
    assert response.status_code == 200
    assert await events(runtime, tenant.id) == before


async def test_failed_requests_emit_nothing(tenant, runtime):
    await tenant.post("/v1/contacts", json={"first_name": "x" * 81})
    await tenant.patch("/v1/contacts/con_00000000000000000000000000", json={"stage": "LEAD"})
    assert await events(runtime, tenant.id) == []


async def test_anonymization_emits_updated_without_personal_data(tenant, runtime):
    contact = (
        await tenant.post("/v1/contacts", json={"first_name": "Dana", "phone": "4155550142"})
    ).json()
    await tenant.delete(f"/v1/contacts/{contact['id']}")
    last = (await events(runtime, tenant.id))[-1]
    assert last["type"] == "contact.updated" and last["data"]["changed"] == ["anonymized"]
    assert last["data"]["first_name"] is None and last["data"]["phone"] is None


async def test_events_stay_in_their_workspace(tenant, other_tenant, runtime):
    await tenant.post("/v1/contacts", json={"first_name": "Mine"})
    assert await events(runtime, other_tenant.id) == []
