"""What a reply may say, and the lead's language, end to end: against a real Chat
Completions server on loopback (tests/ai_support.py), through the provider callback and
the worker, on SQLite and PostgreSQL (docs/ai.md, "What a reply may say", "The lead's
language")."""

import pytest

from homebase.messaging.keywords import classify
from tests.ai_support import Answer, replying
from tests.automations_support import frozen
from tests.messaging_support import reply
from tests.responder_support import (
    DISCLOSURE,
    PHONE,
    SENDER,
    SIGNATURE,
    TWILIO,
    ai_jobs,
    drive,
    load,
    outbound,
    responder_workspace,
    text_in,
)

ES_DISCLOSURE = "Asistente automático de Sam Lee, escribe en su nombre."
ES_SIGNATURE = "- Ava, Lee Realty (ES)"
ES_HOLDING = "¡Gracias! Sam le escribirá pronto."
ES_CONFIRMATION = "{workspace_name}: baja confirmada, no recibirá más mensajes. START para volver."
TRANSLATED = {
    "translations": {
        "es": {
            "disclosure": ES_DISCLOSURE,
            "signature": ES_SIGNATURE,
            "handoff_reply": ES_HOLDING,
            "opt_out_confirmation": ES_CONFIRMATION,
        }
    }
}
LISTING = {
    "address": "12 Elm St",
    "city": "San Francisco",
    "state": "CA",
    "zip": "94131",
    "price": "612000",
    "status": "active",
}


@pytest.fixture
def settings_overrides(chat_server):
    return {
        **TWILIO,
        "ai_provider": "openai",
        "ai_base_url": chat_server.base_url,
        "ai_timeout_seconds": 5,
        "ai_lease_seconds": 6,
        "ai_retry_unit_seconds": 0,
    }


async def tasks_of(tenant, contact_id):
    listed = (await tenant.get("/v1/tasks", params={"limit": 200})).json()["data"]
    return [task for task in listed if task["contact_id"] == contact_id]


async def handoff_reasons(tenant, contact_id):
    events = (await tenant.get(f"/v1/contacts/{contact_id}/events")).json()["data"]
    return [event["data"]["reason"] for event in events if event["type"] == "ai_handoff"]


@pytest.mark.parametrize(
    ("reply", "rule"),
    [
        ("Our commission is only 2% on this one.", "fee_figure"),
        ("You don't need an inspection on a new build.", "advice"),
        ("Great schools and a very safe street!", "fair_housing"),
        ("The seller would take $590,000 for it.", "amount"),
    ],
)
async def test_a_reply_that_says_what_it_must_not_is_not_sent_and_hands_off(
    runtime, client, tenant, chat_server, reply, rule
):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    await load(runtime, tenant, {"listings": [LISTING]})
    chat_server.respond_with(json_object={"reply": reply, "handoff": False})
    await text_in(client, "tell me about 12 Elm St")
    await drive(runtime)
    assert await outbound(tenant) == []
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["outcome"], job["reply_message_id"]) == (
        "handed_off",
        "reply_rule",
        None,
    )
    (task,) = await tasks_of(tenant, contact_id)
    assert f"Reason: reply_rule ({rule})" in task["notes"]
    assert await handoff_reasons(tenant, contact_id) == ["reply_rule"]


async def test_a_listing_s_price_and_the_lead_s_own_amount_are_sent(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    await load(runtime, tenant, {"listings": [LISTING]})
    said = "12 Elm St is listed at $612,000, inside your $650k budget."
    chat_server.respond_with(json_object={"reply": said, "handoff": False})
    await text_in(client, "is 12 Elm St within a budget of 650k?")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert said in sent["body"] and sent["status"] == "SENT"


async def test_a_question_about_schools_or_safety_hands_off_without_asking_the_model(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant)
    await text_in(client, "Is it a safe area? How are the schools?")
    await drive(runtime)
    assert chat_server.recorded() == []
    assert await outbound(tenant) == []
    assert await handoff_reasons(tenant, contact_id) == ["fair_housing"]
    (task,) = await tasks_of(tenant, contact_id)
    assert "asked about schools, safety or who lives nearby" in task["title"]


@pytest.mark.parametrize("bare", ["null", '"Hello there"', '"Hi'])
async def test_a_bare_json_value_is_a_provider_error_and_is_retried(
    runtime, client, tenant, chat_server, bare
):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    chat_server.respond_in_turn(Answer(content=bare), replying("Hi! Buying or selling?"))
    await text_in(client, "hello")
    await drive(runtime)
    assert len(chat_server.recorded()) == 2  # the bare value, then the retry
    (sent,) = await outbound(tenant)
    assert "Hi! Buying or selling?" in sent["body"] and bare not in sent["body"]


async def test_what_the_service_adds_is_never_repeated(runtime, client, tenant, chat_server):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    # The model imitates the texts it was shown: the disclosure and signature again.
    chat_server.respond_with(
        json_object={"reply": f"{DISCLOSURE} Hi! Buying or selling?\n{SIGNATURE}"}
    )
    await text_in(client, "hello")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert sent["body"] == f"{DISCLOSURE} Hi! Buying or selling?\n{SIGNATURE}"
    assert sent["body"].count(DISCLOSURE) == 1 and sent["body"].count(SIGNATURE) == 1
    chat_server.respond_with(json_object={"reply": "Great, which area?"})
    await text_in(client, "buying")
    await drive(runtime)
    shown = chat_server.recorded()[-1].body["messages"]
    (earlier,) = [message for message in shown if message["role"] == "assistant"]
    assert earlier["content"] == "Hi! Buying or selling?"  # as the model wrote it


async def test_typographic_quotes_and_dashes_go_out_as_gsm7(runtime, client, tenant, chat_server):
    frozen(runtime)
    await responder_workspace(runtime, tenant)
    typed = "It\u2019s \u201cnew\u201d \u2013 want to see it\u2026"
    chat_server.respond_with(json_object={"reply": typed})
    await text_in(client, "hello")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert 'It\'s "new" - want to see it...' in sent["body"]
    assert typed not in sent["body"]


async def test_a_spanish_conversation_gets_a_spanish_reply_that_is_sent(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    await responder_workspace(runtime, tenant, **TRANSLATED)
    reply = "¡Hola! Sí, está disponible. ¿Quiere verla el sábado por la mañana?"
    chat_server.respond_with(json_object={"reply": reply, "handoff": False, "language": "es"})
    await text_in(client, "Hola, ¿la casa sigue disponible?")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert sent["status"] == "SENT"
    assert sent["body"] == f"{ES_DISCLOSURE} {reply}\n{ES_SIGNATURE}"
    system = chat_server.recorded()[0].body["messages"][0]["content"]
    # Three segments, less the disclosure and signature of each language: the Spanish
    # ones are UCS-2 themselves (á), so a Spanish reply has UCS-2's budget whatever it says.
    spanish = 201 - len(f"{ES_DISCLOSURE} \n{ES_SIGNATURE}")
    english = 459 - len(f"{DISCLOSURE} \n{SIGNATURE}")
    assert f"Answering in es, reply in at most {spanish} characters" in system
    assert f"or at most {spanish} when any is not" in system
    assert f"Answering in en, reply in at most {english} characters" in system


async def test_a_language_the_persona_does_not_answer_in_hands_off_in_its_words(
    runtime, client, tenant, chat_server
):
    frozen(runtime)
    contact_id = await responder_workspace(
        runtime, tenant, handoff_reply="Thanks! Sam will text you shortly.", **TRANSLATED
    )
    chat_server.respond_with(json_object={"reply": "Bonjour !", "language": "fr"})
    await text_in(client, "Bonjour, la maison est-elle disponible ?")
    await drive(runtime)
    assert await handoff_reasons(tenant, contact_id) == ["language"]
    (holding,) = await outbound(tenant)
    assert "Bonjour" not in holding["body"] and "Sam will text you" in holding["body"]


async def test_a_spanish_handoff_and_opt_out_speak_spanish(runtime, client, tenant, chat_server):
    frozen(runtime)
    contact_id = await responder_workspace(runtime, tenant, **TRANSLATED)
    chat_server.respond_with(
        json_object={"reply": None, "handoff": True, "handoff_reason": "negocia", "language": "es"}
    )
    await text_in(client, "Queremos ofrecer menos, ¿negociamos?")
    await drive(runtime)
    (holding,) = await outbound(tenant)
    assert holding["body"] == f"{ES_DISCLOSURE} {ES_HOLDING}\n{ES_SIGNATURE}"
    assert await handoff_reasons(tenant, contact_id) == ["model"]
    resumed = await tenant.post(f"/v1/contacts/{contact_id}/ai/resume")
    assert resumed.status_code == 200, resumed.text
    chat_server.respond_with(json_object={"reply": None, "opt_out": True, "language": "es"})
    tired = "Ya me cansé, déjenme en paz"
    assert classify(tired) is None  # no keyword: the model's reading alone
    await text_in(client, tired)
    await drive(runtime)
    confirmation = (await outbound(tenant))[-1]
    filled = ES_CONFIRMATION.removeprefix("{workspace_name}")
    assert confirmation["body"].endswith(filled) and "{" not in confirmation["body"]
    assert confirmation["ai_generated"] is False


@pytest.mark.parametrize(
    ("keyword", "spanish"), [("BASTA", True), ("no me manden mensajes", True), ("STOP", False)]
)
async def test_an_opt_out_keyword_is_confirmed_in_its_own_language(
    runtime, client, tenant, chat_server, keyword, spanish
):
    """A keyword read in Spanish is confirmed with the persona's Spanish text, in the
    callback's answer; an English one with the workspace's; the model is never asked."""
    frozen(runtime)
    await responder_workspace(runtime, tenant, **TRANSLATED)
    response = await reply(client, PHONE, keyword, to=SENDER)
    assert response.status_code == 200, response.text
    await drive(runtime)
    (confirmation,) = await outbound(tenant)
    filled = ES_CONFIRMATION.removeprefix("{workspace_name}")
    assert confirmation["body"].endswith(filled) is spanish, confirmation["body"]
    assert ("you are unsubscribed" in confirmation["body"]) is not spanish
    assert confirmation["body"] in response.text and "{" not in confirmation["body"]
    assert chat_server.requests == []


async def test_the_local_stand_in_answers_spanish_in_spanish(runtime, client, tenant):
    runtime.settings.ai_provider = "local"
    frozen(runtime)
    await responder_workspace(runtime, tenant, **TRANSLATED)
    await load(runtime, tenant, {"listings": [LISTING]})
    await text_in(client, "Hola, ¿cuánto cuesta la casa?")
    await drive(runtime)
    (sent,) = await outbound(tenant)
    said = "12 Elm St está a la venta por $612,000. ¿Quiere verla?"
    assert sent["body"] == f"{ES_DISCLOSURE} {said}\n{ES_SIGNATURE}"
    assert sent["status"] == "SENT"
