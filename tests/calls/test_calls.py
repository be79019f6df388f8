"""Calls: provider callback, list and retrieve, masking, signed recording links with Range,
anonymization. HTTP level, on SQLite and PostgreSQL."""

import asyncio
import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

import homebase.fixtures.builtin  # noqa: F401  (the foundation's kinds register first)
from homebase.calls import fixtures as call_fixtures
from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.kit.clock import FrozenClock, isoformat
from homebase.kit.keys import Keyring
from homebase.models import OutboxEvent
from homebase.webhooks import render as webhook_render
from homebase.workspaces import service as workspaces
from tests.support import assert_error, failing_fields, make_key

SECRET = "provider-test-secret"
AUDIO = bytes(range(256)) * 8  # 2 KiB of recognisable bytes
TRANSCRIPT = "AI: Thanks for calling.\nCaller: I want to see 1421 Sanchez on Saturday."
SUMMARY = "Wants a Saturday showing of 1421 Sanchez St."


@pytest.fixture
def settings_overrides(tmp_path):
    return {"recordings_dir": tmp_path / "recordings", "calls_provider_secret": SECRET}


def signed(body: dict) -> tuple[bytes, dict]:
    raw = json.dumps(body).encode()
    signature = "sha256=" + hmac.new(SECRET.encode(), raw, hashlib.sha256).hexdigest()
    return raw, {"X-Homebase-Signature": signature, "Content-Type": "application/json"}


def completed(**fields) -> dict:
    return {
        "provider_call_id": "CA1",
        "direction": "inbound",
        "from": "+1 415 555 0142",
        "to": "+14155550100",
        "started_at": "2026-11-20T17:00:00Z",
        "ended_at": "2026-11-20T17:04:12Z",
        "handled_by": "ai",
        "disposition": "appointment_set",
        "transcript": TRANSCRIPT,
        "summary": SUMMARY,
        **fields,
    }


async def callback(client, body: dict, headers: dict | None = None):
    raw, signed_headers = signed(body)
    return await client.post(
        "/providers/calls/completed",
        content=raw,
        headers=headers if headers is not None else signed_headers,
    )


async def add_number(runtime, tenant, number="+14155550100"):
    async with runtime.db.transaction() as connection:
        await workspaces.add_sender_number(
            TenantSession(connection, tenant.id),
            number=number,
            channel="sms",
            a2p_status="approved",
        )


async def contact(tenant, phone="+14155550142") -> str:
    response = await tenant.post("/v1/contacts", json={"first_name": "Dana", "phone": phone})
    return response.json()["id"]


@pytest.fixture
async def recorded(tenant, runtime, client):
    """An AI call from a known contact, with a stored recording."""
    await add_number(runtime, tenant)
    contact_id = await contact(tenant)
    folder = runtime.settings.recordings_dir / "provider"
    folder.mkdir(parents=True)
    (folder / "CA1.wav").write_bytes(AUDIO)
    response = await callback(client, completed(recording_key="provider/CA1.wav"))
    assert response.status_code == 201, response.text
    return {"id": response.json()["id"], "contact_id": contact_id}


async def events(runtime, tenant, event_type):
    table = OutboxEvent.__table__
    async with runtime.db.transaction(write=False) as connection:
        rows = await connection.execute(
            select(table.c.data).where(
                table.c.workspace_id == tenant.id, table.c.type == event_type
            )
        )
        return [webhook_render.masked(row[0]) for row in rows]  # as delivered


async def test_callback_records_matches_contact_and_emits(tenant, runtime, recorded):
    call = (await tenant.get(f"/v1/calls/{recorded['id']}")).json()
    assert call["contact_id"] == recorded["contact_id"]
    assert call["handled_by"] == "ai" and call["direction"] == "inbound"
    assert call["transcript"] == TRANSCRIPT and call["summary"] == SUMMARY
    assert call["duration_seconds"] == 252 and call["disposition"] == "appointment_set"
    assert call["from"] == "+14155550142" and call["pii_masked"] is False
    assert call["started_at"] == "2026-11-20T17:00:00.000Z"
    [event] = await events(runtime, tenant, "call.completed")
    assert event["id"] == recorded["id"] and event["summary"] == SUMMARY
    assert event["disposition"] == "appointment_set" and event["handled_by"] == "ai"
    assert event["from"].endswith("0142") and "4155550142" not in json.dumps(event)
    assert "transcript" not in event
    timeline = (await tenant.get(f"/v1/contacts/{recorded['contact_id']}/events")).json()["data"]
    assert timeline[0]["type"] == "call" and timeline[0]["body"] == SUMMARY
    assert timeline[0]["data"]["call_id"] == recorded["id"]


async def test_repeated_callback_records_once(tenant, runtime, client, recorded):
    response = await callback(client, completed(recording_key="provider/CA1.wav"))
    assert response.status_code == 200
    assert response.json() == {"id": recorded["id"], "workspace_id": tenant.id, "created": False}
    assert len((await tenant.get("/v1/calls")).json()["data"]) == 1
    assert len(await events(runtime, tenant, "call.completed")) == 1


async def test_callback_signature_is_required(tenant, runtime, client):
    await add_number(runtime, tenant)
    raw, headers = signed(completed())
    altered = raw.replace(b"appointment_set", b"not_interested")
    for body, sent in ((raw, {}), (raw, {"X-Homebase-Signature": "sha256=00"}), (altered, headers)):
        response = await client.post(
            "/providers/calls/completed",
            content=body,
            headers={"Content-Type": "application/json", **sent},
        )
        assert_error(response, 401, "unauthenticated")
    assert (await tenant.get("/v1/calls")).json()["data"] == []
    runtime.settings.calls_provider_secret = ""
    # Switched off is not a server error (no 5xx): the route is answered as absent.
    assert_error(
        await client.post("/providers/calls/completed", content=raw, headers=headers),
        404,
        "not_found",
    )


async def test_callback_validation_and_workspace_resolution(tenant, other_tenant, runtime, client):
    assert failing_fields(await callback(client, completed(handled_by="robot"))) == {"handled_by"}
    assert failing_fields(await callback(client, completed(recording_key="../secret"))) == {
        "recording_key"
    }
    assert failing_fields(await callback(client, completed(ended_at="2026-11-20T16:59:59Z"))) == {
        "ended_at"
    }
    assert failing_fields(await callback(client, {"direction": "inbound"})) >= {
        "provider_call_id",
        "started_at",
        "handled_by",
    }
    # No workspace owns the receiving number.
    assert failing_fields(await callback(client, completed())) == {"to"}
    # Outbound calls resolve by the calling number; workspace_id may be explicit.
    await add_number(runtime, other_tenant, "+14155550199")
    response = await callback(
        client,
        completed(
            provider_call_id="CA2",
            direction="outbound",
            **{"from": "+14155550199", "to": "+15105550100"},
        ),
    )
    assert response.json()["workspace_id"] == other_tenant.id
    response = await callback(client, completed(provider_call_id="CA3", workspace_id=tenant.id))
    assert response.status_code == 201 and response.json()["workspace_id"] == tenant.id
    assert failing_fields(await callback(client, completed(workspace_id="wsp_nope"))) == {
        "workspace_id"
    }
    # A contact id from another workspace is refused like an unknown one.
    their_contact = await contact(other_tenant)
    assert failing_fields(
        await callback(
            client,
            completed(provider_call_id="CA4", workspace_id=tenant.id, contact_id=their_contact),
        )
    ) == {"contact_id"}


async def test_numbers_are_masked_without_pii_scope(tenant, runtime, client, recorded):
    _, key = await make_key(runtime, tenant.id, ["calls:read"])
    headers = {"Authorization": f"token {key}"}
    call = (await client.get(f"/v1/calls/{recorded['id']}", headers=headers)).json()
    assert call["pii_masked"] is True
    assert call["from"] != "+14155550142" and call["from"].endswith("0142")
    assert call["to"].endswith("0100") and "*" in call["to"]
    listed = (await client.get("/v1/calls", params={"fields": "from"}, headers=headers)).json()
    assert listed["data"] == [{"id": recorded["id"], "from": call["from"], "pii_masked": True}]


async def test_scope_tenancy_and_404(tenant, other_tenant, make, recorded):
    others = await make(["deals:read", "contacts:read:pii"])
    for path in ("/v1/calls", f"/v1/calls/{recorded['id']}"):
        error = assert_error(await others.get(path), 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "calls:read"
    assert (await other_tenant.get("/v1/calls")).json()["data"] == []
    for call_id in (recorded["id"], "cal_unknown"):
        assert_error(await other_tenant.get(f"/v1/calls/{call_id}"), 404, "not_found")


async def test_list_filters_pages_and_fields(tenant, runtime, client, recorded):
    for index, (direction, handled_by) in enumerate([("outbound", "human"), ("inbound", "human")]):
        response = await callback(
            client,
            completed(
                provider_call_id=f"H{index}",
                direction=direction,
                handled_by=handled_by,
                workspace_id=tenant.id,
                summary=None,
                disposition="voicemail",
                started_at=f"2026-11-2{index + 1}T10:00:00Z",
                ended_at=None,
            ),
        )
        assert response.status_code == 201, response.text

    async def count(**params):
        response = await tenant.get("/v1/calls", params=params)
        assert response.status_code == 200, response.text
        return len(response.json()["data"])

    assert await count() == 3
    assert await count(handled_by="ai") == 1 and await count(handled_by="human") == 2
    assert await count(direction="outbound") == 1
    assert await count(contact_id=recorded["contact_id"]) == 2
    assert await count(disposition="voicemail") == 2
    assert await count(started_after="2026-11-21T00:00:00Z") == 2
    assert await count(started_before="2026-11-21T00:00:00Z") == 1
    assert failing_fields(await tenant.get("/v1/calls", params={"handled_by": "bot"})) == {
        "handled_by"
    }
    assert failing_fields(await tenant.get("/v1/calls", params={"started_after": "soon"})) == {
        "started_after"
    }
    page = (await tenant.get("/v1/calls", params={"limit": 2})).json()
    rest = (
        await tenant.get("/v1/calls", params={"limit": 2, "cursor": page["next_cursor"]})
    ).json()
    assert page["has_more"] and [item["id"] for item in rest["data"]] == [recorded["id"]]
    narrowed = (await tenant.get("/v1/calls", params={"fields": "summary,recording_url"})).json()
    assert all(
        set(item) == {"id", "summary", "recording_url", "pii_masked"} for item in narrowed["data"]
    )


async def test_recording_link_streams_without_credential(tenant, client, recorded):
    call = (await tenant.get(f"/v1/calls/{recorded['id']}")).json()
    url = call["recording_url"]
    assert url.startswith("http://127.0.0.1:8000/recordings/")
    response = await client.get(url.removeprefix("http://127.0.0.1:8000"))
    assert response.status_code == 200, response.text
    assert response.content == AUDIO and response.headers["content-type"] == "audio/wav"
    assert response.headers["accept-ranges"] == "bytes"


async def test_recording_range_request(tenant, client, recorded):
    call = (await tenant.get(f"/v1/calls/{recorded['id']}")).json()
    path = call["recording_url"].removeprefix("http://127.0.0.1:8000")
    response = await client.get(path, headers={"Range": "bytes=100-299"})
    assert response.status_code == 206
    assert response.headers["content-range"] == f"bytes 100-299/{len(AUDIO)}"
    assert response.content == AUDIO[100:300]
    tail = await client.get(path, headers={"Range": "bytes=-10"})
    assert tail.status_code == 206 and tail.content == AUDIO[-10:]
    beyond = await client.get(path, headers={"Range": f"bytes={len(AUDIO)}-"})
    assert beyond.status_code == 416
    head = await client.head(path)
    assert head.status_code == 200 and head.headers["content-length"] == str(len(AUDIO))


async def test_recording_link_expires_after_five_minutes(tenant, runtime, client, recorded):
    clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    runtime.clock = clock
    call = (await tenant.get(f"/v1/calls/{recorded['id']}")).json()
    path = call["recording_url"].removeprefix("http://127.0.0.1:8000")
    assert call["recording_url_expires_at"] == isoformat(clock.now + timedelta(minutes=5))
    clock.advance(minutes=4, seconds=59)
    assert (await client.get(path)).status_code == 200
    clock.advance(seconds=1)
    assert_error(await client.get(path), 403, "recording_link_expired")
    # A fresh fetch of the call gives a fresh link.
    fresh = (await tenant.get(f"/v1/calls/{recorded['id']}")).json()["recording_url"]
    assert (await client.get(fresh.removeprefix("http://127.0.0.1:8000"))).status_code == 200


async def test_altered_recording_link_is_refused(tenant, client, recorded):
    call = (await tenant.get(f"/v1/calls/{recorded['id']}")).json()
    path = call["recording_url"].removeprefix("http://127.0.0.1:8000")
    token = path.removeprefix("/recordings/")
    for bad in (
        token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        token[:10] + ("x" if token[10] != "x" else "y") + token[11:],
        "garbage",
        token + "A",
    ):
        assert_error(await client.get(f"/recordings/{bad}"), 403, "recording_link_invalid")


async def test_a_link_is_bound_to_its_call(tenant, other_tenant, runtime, client, recorded):
    """The other workspace's call id with this workspace would need a new signature."""
    from homebase.calls import recordings

    link = recordings.issue(
        Keyring("another-secret"), "", tenant.id, recorded["id"], runtime.clock()
    )
    assert_error(await client.get(link.url), 403, "recording_link_invalid")
    link = recordings.issue(
        runtime.settings.keys, "", other_tenant.id, recorded["id"], runtime.clock()
    )
    assert_error(await client.get(link.url), 404, "not_found")


async def test_anonymization_scrubs_calls(tenant, client, recorded):
    assert (await tenant.delete(f"/v1/contacts/{recorded['contact_id']}")).status_code == 200
    call = (await tenant.get(f"/v1/calls/{recorded['id']}")).json()
    assert call["contact_id"] == recorded["contact_id"]
    assert call["transcript"] is None and call["summary"] is None
    assert call["recording_url"] is None and call["from"] is None
    assert call["to"] == "+14155550100"  # the workspace's own number stays
    # The summary was also the body of the call's timeline entry: gone there too.
    timeline = (await tenant.get(f"/v1/contacts/{recorded['contact_id']}/events")).json()
    assert SUMMARY not in str(timeline) and "Sanchez" not in str(timeline)


async def test_calls_from_fixtures_with_generated_recording(tenant, runtime, client, monkeypatch):
    monkeypatch.setattr(call_fixtures, "get_settings", lambda: runtime.settings)
    async with runtime.db.transaction() as connection:
        created = await load_fixtures(
            TenantSession(connection, tenant.id, clock=runtime.clock),
            {
                "contacts": [{"ref": "dana", "first_name": "Dana"}],
                "calls": [
                    {
                        "contact": "dana",
                        "direction": "outbound",
                        "to": "+14155550142",
                        "from": "+14155550100",
                        "started_at": "2026-11-20T17:00:00Z",
                        "duration_seconds": 61,
                        "handled_by": "human",
                        "user_id": "usr_maya",
                        "disposition": "connected",
                        "recording_tone_seconds": 1,
                    }
                ],
            },
        )
    call = (await tenant.get(f"/v1/calls/{created['calls'][0]}")).json()
    assert call["contact_id"] == created["contacts"][0] and call["handled_by"] == "human"
    audio = await client.get(call["recording_url"].removeprefix("http://127.0.0.1:8000"))
    assert audio.status_code == 200 and audio.content[:4] == b"RIFF"


async def test_openapi_documents_the_call_routes(client):
    document = (await client.get("/v1/openapi.json")).json()
    paths = document["paths"]
    assert paths["/recordings/{token}"]["get"]["security"] == []
    callback_body = paths["/providers/calls/completed"]["post"]["requestBody"]
    assert (
        "provider_call_id" in callback_body["content"]["application/json"]["schema"]["properties"]
    )
    call = document["components"]["schemas"]["Call"]
    assert {"from", "to", "handled_by", "recording_url", "transcript", "summary"} <= set(
        call["properties"]
    )


async def test_concurrent_duplicate_callbacks_record_once(tenant, runtime, client):
    await add_number(runtime, tenant)
    responses = await asyncio.gather(
        *(callback(client, completed(provider_call_id="RACE")) for _ in range(4))
    )
    assert sorted(response.status_code for response in responses) == [200, 200, 200, 201]
    assert len({response.json()["id"] for response in responses}) == 1
    assert len(await events(runtime, tenant, "call.completed")) == 1
