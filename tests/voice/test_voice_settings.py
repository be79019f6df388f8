"""What AI calls are configured by (docs/voice.md, "Settings"): the settings, a persona's
voice and voicemail, a voice sender number, members' phones; the local stand-in; and the
WebSocket upgrade passing the body limit, compression and CORS layers untouched. On
SQLite and PostgreSQL."""

import pytest

from homebase.config import Settings
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.kit.masking import mask_phone
from homebase.members import render as members_render
from homebase.members import repository as members_repository
from homebase.voice import provider as voice_provider
from tests.automations_support import frozen
from tests.responder_support import RESPONDER, drive, load
from tests.voice_support import (
    FakeTwilio,
    Served,
    ask_for_call,
    placed_call,
    settings_for,
    voice_calls,
    voice_workspace,
)


def test_the_settings_default_to_the_local_stand_in():
    settings = Settings(env="test", secret_key="x" * 40)
    assert settings.voice_provider == "local"
    assert settings.voice_silence_seconds == 8
    assert settings.voice_max_minutes == 10
    with pytest.raises(ValueError):
        Settings(env="test", secret_key="x" * 40, voice_provider="sip")


async def test_a_persona_is_off_the_phone_unless_it_says_so(runtime, tenant):
    created = await load(
        runtime,
        tenant,
        {
            "personas": [
                {**RESPONDER, "ref": "a"},
                {
                    "name": "Caller",
                    "tone": "brief",
                    "channels": ["SMS"],
                    "voice": True,
                    "voicemail": "leave",
                    "voicemail_text": "Call us back about the listing.",
                },
            ]
        },
    )
    quiet, caller = created["personas"]
    one = (await tenant.get(f"/v1/personas/{quiet}")).json()
    assert (one["voice"], one["voicemail"], one["voicemail_text"]) == (False, "hang_up", None)
    other = (await tenant.get(f"/v1/personas/{caller}")).json()
    assert (other["voice"], other["voicemail"]) == (True, "leave")
    assert other["voicemail_text"] == "Call us back about the listing."
    with pytest.raises(AdminError) as refused:
        await load(runtime, tenant, {"personas": [{**RESPONDER, "voicemail": "sing"}]})
    assert "voicemail" in str(refused.value)


async def test_members_have_an_optional_phone_masked_as_contacts_are(runtime, tenant):
    await load(
        runtime,
        tenant,
        {
            "members": [
                {"email": "sam@example.com", "name": "Sam", "phone": "+14155550177"},
                {"email": "kim@example.com", "name": "Kim"},
            ]
        },
    )
    members = {m["name"]: m for m in (await tenant.get("/v1/members")).json()["data"]}
    assert members["Sam"]["phone"] == "+14155550177" and members["Kim"]["phone"] is None
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        row = await members_repository.get(session, members["Sam"]["id"])
    masked = members_render.member(row, pii=False, routed=set())
    assert masked["phone"] == mask_phone("+14155550177") != "+14155550177"
    assert masked["pii_masked"] is True
    with pytest.raises(AdminError) as refused:
        await load(runtime, tenant, {"members": [{"email": "x@example.com", "phone": "555"}]})
    assert "E.164" in str(refused.value)


async def test_the_local_stand_in_places_the_call_in_process(runtime, tenant):
    frozen(runtime)
    contact_id = await voice_workspace(runtime, tenant)
    before = len(voice_provider.RECORDED.placed)
    asked = await ask_for_call(runtime, tenant, contact_id)
    await drive(runtime)
    assert len(voice_provider.RECORDED.placed) == before + 1
    request = voice_provider.RECORDED.placed[-1]
    assert f"call={asked['id']}" in request.twiml
    [row] = await voice_calls(runtime, tenant)
    assert row["status"] == "placed" and row["provider_call_sid"].startswith("CA")


@pytest.fixture
def fake_twilio():
    fake = FakeTwilio().start()
    yield fake
    fake.stop()


class TestBehindEveryLayer:
    """CORS on, a small body limit, a client that accepts gzip: the relay's upgrade and
    its messages pass untouched (the layers act on HTTP only)."""

    @pytest.fixture
    def settings_overrides(self, fake_twilio):
        return settings_for(fake_twilio, cors_origins="https://app.example", max_body_bytes=1024)

    async def test_the_websocket_upgrade_passes_the_http_layers(
        self, runtime, tenant, app, fake_twilio
    ):
        frozen(runtime)
        contact_id = await voice_workspace(runtime, tenant)
        await ask_for_call(runtime, tenant, contact_id)
        await drive(runtime)
        async with Served(app) as served:
            call = placed_call(fake_twilio, served)
            await call.open()
            heard = await call.say("Hi there, I'm curious " + "about the area " * 100)
            assert heard[-1]["type"] == "text" and heard[-1]["last"] is True
            await call.close()
