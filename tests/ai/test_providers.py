"""The responders behind the AI responder: the offline stand-in, and the Chat Completions
provider against a real local server (tests/ai_support.py, the `chat_server` fixture)."""

import json
import logging
import re
import subprocess
import sys
import time
from datetime import date

import pytest

from homebase.ai.local import LocalResponder
from homebase.ai.openai_chat import AGENT_PREFIX, NO_KEY, OpenAIResponder
from homebase.ai.prompt import (
    LEAD_DATA_LABEL,
    ListingFacts,
    ModelAnswer,
    ModelFailure,
    Prompt,
    Turn,
)
from homebase.ai.providers import responder_for
from homebase.config import Settings
from tests.ai_support import ChatServer

OAK = ListingFacts(
    address="12 Oak St",
    city="Springfield",
    price="$612,000",
    beds=3,
    baths=2.5,
    url="https://homes.example.com/12-oak",
)
URL = re.compile(r"https?://\S+|www\.\S+", re.IGNORECASE)
PHONE = re.compile(r"\+?\d[\d\s().-]{8,}\d")


def prompt(*texts: str, listings=(OAK,), **fields) -> Prompt:
    values = {
        "instructions": "Help buyers find a home in Springfield and book showings.",
        "persona_name": "Ava",
        "tone": "warm and brief",
        "first_name": "Dana",
        "stage": "new",
        "lead_source": "zillow",
        "conversation": tuple(Turn("lead", text) for text in texts),
        "listings": listings,
        **fields,
    }
    return Prompt(**values)


async def local(given: Prompt) -> ModelAnswer:
    answer = await LocalResponder().answer(given)
    if answer.reply is not None:  # every reply keeps the rules a model's reply must
        assert len(answer.reply) <= given.max_characters // 2
        allowed = {*given.links, *(listing.url for listing in given.listings if listing.url)}
        assert set(URL.findall(answer.reply)) <= allowed
        assert not PHONE.search(answer.reply)
    return answer


# The stand-in: four kinds of text and everything else.


@pytest.mark.parametrize("text", ["hi", "Hello!", "hey there", "Good morning"])
async def test_a_greeting_gets_the_first_name_and_buying_or_selling(text):
    answer = await local(prompt(text))
    assert answer == ModelAnswer(reply=answer.reply)
    assert "Dana" in answer.reply and "Ava" in answer.reply
    assert "buy" in answer.reply and "sell" in answer.reply
    nameless = await local(prompt(text, first_name=None))
    assert nameless.reply.startswith("Hi there")


@pytest.mark.parametrize(
    "text",
    ["Can I tour it?", "I'd like a showing", "could we see the house saturday", "Visit?"],
)
async def test_a_showing_request_offers_the_first_listing_with_its_url(text):
    other = ListingFacts("9 Elm Rd", "Shelbyville", "$400,000", 2, 1, None)
    answer = await local(prompt(text, listings=(OAK, other)))
    assert "showing" in answer.reply
    assert "12 Oak St" in answer.reply and OAK.url in answer.reply
    assert "Elm" not in answer.reply
    without_url = await local(prompt(text, listings=(other,)))
    assert "9 Elm Rd" in without_url.reply and not URL.search(without_url.reply)
    no_listing = await local(prompt(text, listings=()))
    assert "showing" in no_listing.reply and "Which property" in no_listing.reply


@pytest.mark.parametrize("text", ["What's the price?", "how much is it", "asking?", "cost"])
async def test_a_price_question_gets_the_listing_price_or_a_range_question(text):
    assert (await local(prompt(text))).reply == (
        "12 Oak St is listed at $612,000. Would you like to see it?"
    )
    no_listing = await local(prompt(text, listings=()))
    assert "price range" in no_listing.reply and "$" not in no_listing.reply
    unpriced = ListingFacts("9 Elm Rd", "Shelbyville", None, None, None, None)
    assert "price range" in (await local(prompt(text, listings=(unpriced,)))).reply


@pytest.mark.parametrize(
    "text",
    [
        "Can I talk to a human?",
        "a real person please",
        "is there an agent",
        "call me",
        "hi, someone?",
    ],
)
async def test_asking_for_a_person_hands_off_without_a_reply(text):
    assert await local(prompt(text)) == ModelAnswer(
        reply=None, handoff=True, handoff_reason="asked for a person"
    )


@pytest.mark.parametrize("texts", [("We're moving in the spring",), ()])
async def test_anything_else_gets_a_qualifying_question(texts):
    answer = await local(prompt(*texts))
    assert answer.reply == "Thanks! What's your timeline, and which area are you looking in?"
    assert not answer.handoff


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Hola, buenos días", "¡Hola Dana! Soy Ava. ¿Busca comprar o vender?"),
        ("¿Cuánto cuesta la casa?", "12 Oak St está a la venta por $612,000. ¿Quiere verla?"),
        ("¿Podemos visitar la casa?", "Con gusto le muestro 12 Oak St, Springfield."),
        ("Gracias, estamos mirando", "¡Gracias! ¿Para cuándo busca y en qué zona?"),
    ],
)
async def test_a_lead_who_writes_spanish_gets_the_stand_in_s_answers_in_spanish(text, said):
    answer = await local(prompt(text))
    assert said in answer.reply and answer.language == "es"
    # A persona that answers only in English hears English.
    english = await local(prompt(text, languages=("en",)))
    assert english.language is None and "¿" not in english.reply


async def test_the_stand_in_reads_the_lead_s_unanswered_texts():
    turns = (
        Turn("lead", "Can a real person call me?"),
        Turn("agent", "Hi Dana, this is Sam."),
        Turn("lead", "hi"),
        Turn("lead", "how much is it?"),
    )
    answer = await local(prompt(conversation=turns))
    assert answer.reply.startswith("12 Oak St is listed at")  # the price beat the greeting
    # A retry after a reply: the lead's last text.
    retry = turns[:1] + (Turn("assistant", "One moment."),)
    assert (await local(prompt(conversation=retry))).handoff


async def test_the_stand_in_fits_a_long_listing_into_the_limit():
    long = ListingFacts("1 " + "Very Long Avenue " * 12, "Springfield", None, None, None, OAK.url)
    roomy = await LocalResponder().answer(prompt("tour?", listings=(long,), max_characters=400))
    assert roomy.reply.endswith(" " + OAK.url) and len(roomy.reply) <= 400
    answer = await LocalResponder().answer(prompt("tour?", listings=(long,), max_characters=300))
    assert "http" not in answer.reply and len(answer.reply) <= 300  # the link left out, not cut
    tight = await LocalResponder().answer(prompt("tour?", listings=(long,), max_characters=60))
    assert len(tight.reply) <= 60 and tight.reply.endswith("...")  # GSM-7, as it is sent


# The Chat Completions provider.


def ai_settings(server: ChatServer, **overrides) -> Settings:
    values = {
        "env": "test",
        "ai_provider": "openai",
        "ai_base_url": server.base_url,
        "ai_api_key": "sk-configured",
        "ai_model": "homebase-test-model",
        "ai_timeout_seconds": 5,
        **overrides,
    }
    return Settings(**values)


def conversation_prompt() -> Prompt:
    return prompt(
        conversation=(
            Turn("lead", "Hi, is 12 Oak St still available?"),
            Turn("assistant", "Yes, it is! Would you like to see it?"),
            Turn("agent", "I can show it Saturday at 10."),
            Turn("lead", "Great. What's the price?"),
        ),
        lead_context={"budget": "$600k-$650k", "timeline": "3 months"},
        links=("https://homes.example.com/book",),
        phone="+1 555 010 0199",
        today=date(2026, 5, 14),
    )


async def test_the_request_carries_the_prompt_and_asks_for_a_json_object(chat_server):
    answer = await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())
    assert answer == ModelAnswer(reply="Hi there!")

    [request] = chat_server.recorded()
    assert request.path == "/v1/chat/completions"
    body = request.body
    assert body["model"] == "homebase-test-model"
    assert body["response_format"] == {"type": "json_object"}
    assert not body.get("stream")
    messages = body["messages"]
    roles = [m["role"] for m in messages]
    assert roles == ["system", "user", "user", "assistant", "assistant", "user"]
    assert messages[2]["content"] == "Hi, is 12 Oak St still available?"
    assert messages[3]["content"] == "Yes, it is! Would you like to see it?"
    assert messages[4]["content"] == AGENT_PREFIX + "I can show it Saturday at 10."
    system = messages[0]["content"]
    for fact in (
        "Help buyers find a home in Springfield and book showings.",
        "Ava",
        "warm and brief",
        "12 Oak St, Springfield; price $612,000; 3 beds; 2.5 baths; " + OAK.url,
        "https://homes.example.com/book",
        "+1 555 010 0199",
        "at most 459 characters",  # GSM-7, three segments
        "or at most 201 when any is not",  # UCS-2, as most Spanish needs
        "one of: en, es",
        "commission",
        "JSON",
        "Thursday, 14 May 2026",
    ):
        assert fact in system, fact
    # What is known about the lead is one quoted, labelled user message, never the
    # system's: its label, then a JSON object.
    label, quoted = messages[1]["content"].split("\n")
    assert label == LEAD_DATA_LABEL
    assert json.loads(quoted) == {
        "first_name": "Dana",
        "stage": "new",
        "lead_source": "zillow",
        "context": {"budget": "$600k-$650k", "timeline": "3 months"},
    }
    for lead_fact in ("Dana", "zillow", "$600k", "3 months"):
        assert lead_fact not in system, lead_fact
    # Only what the Prompt holds: no surname, no email, nothing the caller did not give.
    assert "Doe" not in json.dumps(body) and "@" not in system


async def test_headers_are_the_protocol_s_and_the_configured_key(chat_server):
    await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())
    headers = chat_server.recorded()[0].headers
    assert headers["authorization"] == "Bearer sk-configured"
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"].startswith("Homebase-AI/")
    assert not [name for name in headers if name.startswith(("openai-", "x-stainless"))]


async def test_the_environment_s_openai_variables_are_ignored(chat_server, monkeypatch):
    decoy = ChatServer().start()
    try:
        monkeypatch.setenv("OPENAI_BASE_URL", decoy.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-bogus-env")
        monkeypatch.setenv("OPENAI_ORG_ID", "org-bogus")
        monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-bogus")
        monkeypatch.setenv("OPENAI_ADMIN_KEY", "admin-bogus")
        monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: bogus\nAuthorization: Bearer bogus")
        for key in ("sk-configured", ""):
            responder = OpenAIResponder(ai_settings(chat_server, ai_api_key=key))
            assert (await responder.answer(conversation_prompt())).reply == "Hi there!"
        assert decoy.recorded() == []
        first, second = chat_server.recorded()
        assert first.headers["authorization"] == "Bearer sk-configured"
        # No key configured: a placeholder (local servers ignore it), never the env's.
        assert second.headers["authorization"] == f"Bearer {NO_KEY}"
        for request in (first, second):
            assert "openai-organization" not in request.headers
            assert "openai-project" not in request.headers
            assert "x-leak" not in request.headers
            assert not [value for value in request.headers.values() if "bogus" in value]
    finally:
        decoy.stop()


async def test_a_json_answer_is_read(chat_server):
    responder = OpenAIResponder(ai_settings(chat_server))
    chat_server.respond_with(
        json_object={"reply": " It's $612,000. ", "handoff": False, "handoff_reason": ""}
    )
    assert await responder.answer(conversation_prompt()) == ModelAnswer(reply="It's $612,000.")
    chat_server.respond_with(text='```json\n{"reply": "Saturday works.", "handoff": "false"}\n```')
    assert await responder.answer(conversation_prompt()) == ModelAnswer(reply="Saturday works.")


@pytest.mark.parametrize(
    ("given", "language"), [("es", "es"), (" ES ", "es"), ("es-MX", "es"), ("Spanish", None)]
)
async def test_the_answer_names_the_conversation_s_language(chat_server, given, language):
    responder = OpenAIResponder(ai_settings(chat_server))
    chat_server.respond_with(json_object={"reply": "¡Hola!", "language": given})
    answered = await responder.answer(conversation_prompt())
    assert (answered.reply, answered.language) == ("¡Hola!", language)


async def test_plain_text_is_taken_as_the_reply(chat_server):
    chat_server.respond_with(text="  Sure, Saturday at 10 works!\n")
    answer = await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())
    assert answer == ModelAnswer(reply="Sure, Saturday at 10 works!", handoff=False)


async def test_the_model_can_hand_off(chat_server):
    responder = OpenAIResponder(ai_settings(chat_server))
    chat_server.respond_with(
        json_object={"reply": None, "handoff": True, "handoff_reason": "wants a lender"}
    )
    assert await responder.answer(conversation_prompt()) == ModelAnswer(
        reply=None, handoff=True, handoff_reason="wants a lender"
    )
    chat_server.respond_with(json_object={"reply": "", "handoff": "true"})
    assert await responder.answer(conversation_prompt()) == ModelAnswer(reply=None, handoff=True)


@pytest.mark.parametrize(
    "given",
    [True, "true", " TRUE ", "yes", 1, "revoked"],  # errs toward suppression
)
async def test_the_model_can_report_an_opt_out_and_nothing_else_of_it_is_read(chat_server, given):
    responder = OpenAIResponder(ai_settings(chat_server))
    chat_server.respond_with(
        json_object={"reply": "Sure, I will stop!", "handoff": "maybe", "opt_out": given}
    )
    assert await responder.answer(conversation_prompt()) == ModelAnswer(reply=None, opt_out=True)


@pytest.mark.parametrize("given", [False, None, "false", "no", 0, ""])
async def test_an_opt_out_plainly_false_is_no_opt_out(chat_server, given):
    responder = OpenAIResponder(ai_settings(chat_server))
    chat_server.respond_with(json_object={"reply": "Saturday works.", "opt_out": given})
    assert await responder.answer(conversation_prompt()) == ModelAnswer(reply="Saturday works.")


async def test_the_model_is_told_how_to_report_an_opt_out(chat_server):
    await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())
    [request] = chat_server.recorded()
    told = [message["content"] for message in request.body["messages"]]
    assert any('"opt_out": true when the lead asks' in text for text in told)


@pytest.mark.parametrize(
    "content",
    [
        None,
        "   ",
        '{"reply": "Hi", "handoff": fal',  # cut short: never sent as text
        '["Hi"]',
        '{"reply": 42}',
        '{"reply": "Hi", "handoff": "maybe"}',
    ],
)
async def test_an_empty_or_unusable_answer_is_a_failure(chat_server, content):
    chat_server.respond_with(text=content, empty=content is None)
    with pytest.raises(ModelFailure, match="^openai: the answer"):
        await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())


@pytest.mark.parametrize(
    ("status", "kind"), [(500, "InternalServerError"), (429, "RateLimitError")]
)
async def test_an_error_status_is_a_failure_tried_once(chat_server, status, kind):
    chat_server.respond_with(status=status)
    with pytest.raises(ModelFailure) as failure:
        await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())
    assert str(failure.value) == f"openai: {kind} (status {status})"
    assert len(chat_server.recorded()) == 1  # no retry: the job retries with its backoff


async def test_a_slow_model_times_out_promptly(chat_server):
    delay = 30  # the model's answer comes this late; the timeout is 0.3 s
    chat_server.respond_with(delay=delay)
    responder = OpenAIResponder(ai_settings(chat_server, ai_timeout_seconds=0.3))
    started = time.monotonic()
    with pytest.raises(ModelFailure, match="^openai: timed out after 0.3 s$"):
        await responder.answer(conversation_prompt())
    assert time.monotonic() - started < delay  # it gave up before the answer came
    assert len(chat_server.recorded()) == 1


async def test_a_dropped_connection_is_a_failure(chat_server):
    chat_server.respond_with(close=True)
    with pytest.raises(ModelFailure, match="^openai: APIConnectionError$"):
        await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())
    assert len(chat_server.recorded()) == 1


@pytest.mark.parametrize(
    ("raw", "content_type", "message"),
    [
        (b"<html>Bad gateway</html>", "text/html", "openai: the answer has no message"),
        (b"{not json", "application/json", "openai: the response is not JSON"),
        (
            b'{"object": "chat.completion", "choices": []}',
            "application/json",
            "openai: the answer has no message",
        ),
    ],
)
async def test_a_response_that_is_no_completion_is_a_failure(
    chat_server, raw, content_type, message
):
    chat_server.respond_with(raw=raw, content_type=content_type)
    with pytest.raises(ModelFailure) as failure:
        await OpenAIResponder(ai_settings(chat_server)).answer(conversation_prompt())
    assert str(failure.value) == message


async def test_no_server_is_a_failure():
    gone = ChatServer().start()
    gone.stop()  # its port now refuses connections
    with pytest.raises(ModelFailure, match="^openai: APIConnectionError$"):
        await OpenAIResponder(ai_settings(gone)).answer(conversation_prompt())


async def test_failures_and_logs_never_carry_the_prompt(chat_server, caplog):
    caplog.set_level(logging.DEBUG)
    responder = OpenAIResponder(ai_settings(chat_server))
    chat_server.respond_with(status=500)
    with pytest.raises(ModelFailure) as failure:
        await responder.answer(conversation_prompt())
    chat_server.respond_with()
    await responder.answer(conversation_prompt())
    said = [str(failure.value), *(record.getMessage() for record in caplog.records)]
    assert not [line for line in said if "What's the price" in line or "Dana" in line]


async def test_one_responder_per_configuration_reusing_its_connection(chat_server):
    settings = ai_settings(chat_server)
    responder = responder_for(settings)
    assert isinstance(responder, OpenAIResponder) and responder.name == "openai"
    assert responder_for(ai_settings(chat_server)) is responder  # equal values, one responder
    assert responder_for(ai_settings(chat_server, ai_model="other")) is not responder
    await responder.answer(conversation_prompt())
    await responder.answer(conversation_prompt())
    first, second = chat_server.recorded()
    assert first.client_port == second.client_port  # one client, its connection kept alive


def test_the_local_stand_in_is_the_default_and_needs_no_openai():
    assert isinstance(responder_for(Settings(env="test")), LocalResponder)
    assert responder_for(Settings(env="test", ai_provider="local")).name == "local"
    # Choosing a provider does not import the openai library (about a second of start-up).
    code = "import sys, homebase.ai.providers; print('openai' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
