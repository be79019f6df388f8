"""The AI responder's persona fields: loaded by load-fixtures with their refusals, shown by
GET /v1/personas (the workspace's own, narrowed by `fields`, the phone never masked)."""

import pytest

from homebase.kit.errors import AdminError
from tests.automations_support import load
from tests.support import assert_error

MEMBER = {"ref": "maya", "email": "maya@example.com", "name": "Maya Chen"}
RESPONDER = {
    "ref": "ava",
    "name": "Ava",
    "tone": "warm, brief",
    "channels": ["sms", "EMAIL"],
    "responder": True,
    "instructions": "  Qualify buyers and sellers. Never quote commission.  ",
    "disclosure": "Automated assistant for Maya Chen, writing on her behalf.",
    "handoff_reply": "Thanks! Maya will text you back shortly.",
    "handoff_assignee": "maya",
    "links": [
        "https://www.reyes.example/",
        "HTTP://Reyes.example/about",
        "https://www.reyes.example/",
    ],
    "phone": "(415) 555-0100",
}
PLAIN = {"name": "Sam", "tone": "direct", "channels": ["EMAIL"]}


async def test_get_shows_the_responder_fields(runtime, tenant, other_tenant):
    created = await load(runtime, tenant.id, {"members": [MEMBER], "personas": [RESPONDER, PLAIN]})
    maya = created["members"][0]
    ava, sam = created["personas"]
    data = (await tenant.get("/v1/personas")).json()["data"]
    assert [item["id"] for item in data] == [sam, ava]
    assert {key: data[1][key] for key in RESPONDER if key != "ref"} | {
        "signature": data[1]["signature"]
    } == {
        "name": "Ava",
        "tone": "warm, brief",
        "channels": ["SMS", "EMAIL"],
        "responder": True,
        "instructions": "Qualify buyers and sellers. Never quote commission.",
        "disclosure": "Automated assistant for Maya Chen, writing on her behalf.",
        "handoff_reply": "Thanks! Maya will text you back shortly.",
        "handoff_assignee": maya,
        # A repeated link is kept once, in order.
        "links": ["https://www.reyes.example/", "HTTP://Reyes.example/about"],
        "phone": "+14155550100",
        "signature": None,
    }
    # Unset: null, and links an empty list, never null.
    assert {
        key: data[0][key]
        for key in (
            "responder",
            "instructions",
            "disclosure",
            "handoff_reply",
            "handoff_assignee",
            "links",
            "phone",
        )
    } == {
        "responder": False,
        "instructions": None,
        "disclosure": None,
        "handoff_reply": None,
        "handoff_assignee": None,
        "links": [],
        "phone": None,
    }
    one = (await tenant.get(f"/v1/personas/{ava}")).json()
    assert one == data[1]

    # Another workspace may have its own responder; neither sees the other's.
    theirs = await load(
        runtime, other_tenant.id, {"personas": [{**RESPONDER, "handoff_assignee": None}]}
    )
    assert [item["id"] for item in (await other_tenant.get("/v1/personas")).json()["data"]] == (
        theirs["personas"]
    )
    assert [item["id"] for item in (await tenant.get("/v1/personas")).json()["data"]] == [sam, ava]
    assert_error(await tenant.get(f"/v1/personas/{theirs['personas'][0]}"), 404, "not_found")
    assert_error(await other_tenant.get(f"/v1/personas/{ava}"), 404, "not_found")


async def test_fields_narrow_to_the_new_members(runtime, tenant):
    created = await load(runtime, tenant.id, {"members": [MEMBER], "personas": [RESPONDER]})
    ava = created["personas"][0]
    page = (await tenant.get("/v1/personas", params={"fields": "responder,links,phone"})).json()
    assert page["data"] == [
        {
            "id": ava,
            "responder": True,
            "links": ["https://www.reyes.example/", "HTTP://Reyes.example/about"],
            "phone": "+14155550100",
        }
    ]
    one = await tenant.get(
        f"/v1/personas/{ava}",
        params={"fields": "instructions,disclosure,handoff_reply,handoff_assignee"},
    )
    assert one.json() == {
        "id": ava,
        "instructions": "Qualify buyers and sellers. Never quote commission.",
        "disclosure": "Automated assistant for Maya Chen, writing on her behalf.",
        "handoff_reply": "Thanks! Maya will text you back shortly.",
        "handoff_assignee": created["members"][0],
    }


async def test_the_business_phone_is_shown_without_the_pii_scope(runtime, make):
    reader = await make(["automations:read"])
    await load(runtime, reader.id, {"personas": [{**RESPONDER, "handoff_assignee": None}]})
    persona = (await reader.get("/v1/personas")).json()["data"][0]
    assert persona["phone"] == "+14155550100"
    assert "pii_masked" not in persona


LONG_URL = "https://www.reyes.example/" + "a" * 2023  # 2049 characters


@pytest.mark.parametrize(
    ("personas", "message"),
    [
        (
            [RESPONDER, {**PLAIN, "channels": ["SMS"], "responder": True, "disclosure": "Hi"}],
            "personas[1].responder: the workspace already has a responder, Ava (prs_",
        ),
        (
            [{**RESPONDER, "disclosure": None}],
            "personas[0].disclosure: is required when responder is true",
        ),
        (
            [{key: value for key, value in RESPONDER.items() if key != "disclosure"}],
            "personas[0].disclosure: is required when responder is true",
        ),
        ([{**RESPONDER, "disclosure": "x" * 161}], "personas[0].disclosure: String should have"),
        (
            [{**RESPONDER, "channels": ["EMAIL"]}],
            "personas[0].channels: a responder answers texts: it must use SMS or WHATSAPP "
            "(it uses EMAIL)",
        ),
        (
            [{**RESPONDER, "instructions": "x" * 4001}],
            "personas[0].instructions: String should have at most 4000 characters",
        ),
        ([{**RESPONDER, "instructions": "   "}], "personas[0].instructions: String should have"),
        ([{**RESPONDER, "handoff_reply": "x" * 301}], "personas[0].handoff_reply"),
        ([{**RESPONDER, "responder": "maybe"}], "personas[0].responder"),
        (
            [{**RESPONDER, "links": ["ftp://reyes.example/"]}],
            "personas[0].links.0: Value error, must be an absolute http or https URL",
        ),
        (
            [{**RESPONDER, "links": ["https://ok.example/", "www.reyes.example"]}],
            "personas[0].links.1: Value error, must be an absolute http or https URL",
        ),
        (
            [{**RESPONDER, "links": ["https://reyes.example/a b"]}],
            "personas[0].links.0: Value error, must not contain white space or control",
        ),
        (
            [{**RESPONDER, "links": ["https://reyes.example/\u202egnp.exe"]}],
            "personas[0].links.0: Value error, must not contain white space or control",
        ),
        (
            [{**RESPONDER, "links": ["https://bank.example@evil.example/"]}],
            "personas[0].links.0: Value error, must not carry a user name or password",
        ),
        (
            [{**RESPONDER, "links": ["https:///path"]}],
            "personas[0].links.0: Value error, must name a host",
        ),
        (
            [{**RESPONDER, "links": ["https://reyes.example:99999/"]}],
            "personas[0].links.0: Value error, is not a valid URL",
        ),
        (
            [{**RESPONDER, "links": [LONG_URL]}],
            "personas[0].links.0: String should have at most 2048",
        ),
        (
            [{**RESPONDER, "links": [f"https://reyes.example/{n}" for n in range(11)]}],
            "personas[0].links: List should have at most 10 items",
        ),
        (
            [{**RESPONDER, "links": "https://reyes.example/"}],
            "personas[0].links: Input should be a valid list",
        ),
        (
            [{**RESPONDER, "phone": "call me"}],
            "personas[0].phone: Value error, is not a phone number",
        ),
        ([{**RESPONDER, "phone": "12"}], "personas[0].phone: Value error, is not a phone number"),
        (
            [{**RESPONDER, "handoff_assignee": "usr_nobody"}],
            "personas[0].handoff_assignee: 'usr_nobody' is not a member of this workspace",
        ),
        (
            [{**RESPONDER, "handoff_assignee": "nobody"}],
            "personas[0]: handoff_assignee: unknown ref 'nobody'",
        ),
        ([{**RESPONDER, "voice": "alloy"}], "personas[0].voice: Input should be a valid boolean"),
        ([{**RESPONDER, "languages": ["english"]}], "personas[0].languages.0: String should"),
        ([{**RESPONDER, "languages": []}], "personas[0].languages: List should have at least"),
        (
            [{**RESPONDER, "translations": {"fr": {"signature": "Ava"}}}],
            "translations: 'fr' is not one of the persona's languages (en, es)",
        ),
        (
            [{**RESPONDER, "translations": {"es": {"disclosure": "Hola {agente}"}}}],
            "personas[0].translations.es.disclosure: Value error, holds a placeholder",
        ),
        (
            [{**RESPONDER, "translations": {"es": {"firma": "Ava"}}}],
            "personas[0].translations.es.firma: Extra inputs are not permitted",
        ),
    ],
)
async def test_refusals_name_the_item_and_write_nothing(runtime, tenant, personas, message):
    with pytest.raises(AdminError) as refused:
        await load(runtime, tenant.id, {"members": [MEMBER], "personas": personas})
    assert message in str(refused.value), str(refused.value)
    assert (await tenant.get("/v1/personas")).json()["data"] == []


async def test_a_second_responder_is_refused_on_a_later_load_too(runtime, tenant):
    """Personas load as new rows, so loading the responder's file again would make a second."""
    document = {"members": [MEMBER], "personas": [RESPONDER]}
    first = await load(runtime, tenant.id, document)
    with pytest.raises(AdminError) as refused:
        await load(runtime, tenant.id, {"personas": [{**RESPONDER, "handoff_assignee": None}]})
    assert str(refused.value) == (
        "personas[0].responder: the workspace already has a responder, "
        f"Ava ({first['personas'][0]}); a workspace has at most one"
    )
    # A persona that is not the responder still loads beside it.
    second = await load(runtime, tenant.id, {"personas": [PLAIN]})
    listed = (await tenant.get("/v1/personas")).json()["data"]
    assert [(item["id"], item["responder"]) for item in listed] == [
        (second["personas"][0], False),
        (first["personas"][0], True),
    ]


async def test_another_workspaces_member_is_no_assignee(runtime, tenant, other_tenant):
    theirs = await load(runtime, other_tenant.id, {"members": [MEMBER]})
    member = theirs["members"][0]
    with pytest.raises(AdminError) as refused:
        await load(runtime, tenant.id, {"personas": [{**RESPONDER, "handoff_assignee": member}]})
    assert str(refused.value) == (
        f"personas[0].handoff_assignee: '{member}' is not a member of this workspace"
    )


async def test_languages_and_translations_are_loaded_and_shown(runtime, tenant):
    spanish = {
        "disclosure": "Asistente automático de {agent_name}.",
        "signature": "- Ava (ES)",
        "opt_out_confirmation": "{workspace_name}: baja confirmada.",
    }
    created = await load(
        runtime,
        tenant.id,
        {
            "members": [MEMBER],
            "personas": [
                {**RESPONDER, "languages": ["es", "en", "es"], "translations": {"es": spanish}},
                PLAIN,
            ],
        },
    )
    ava, sam = created["personas"]
    shown = (await tenant.get(f"/v1/personas/{ava}")).json()
    assert (shown["languages"], shown["translations"]) == (["es", "en"], {"es": spanish})
    plain = (await tenant.get(f"/v1/personas/{sam}")).json()
    assert (plain["languages"], plain["translations"]) == (["en", "es"], {})  # the defaults
