"""The rules code enforces on every AI reply, for every provider (homebase/ai/rules.py)."""

import pytest

from homebase.ai import rules

PERSONA_LINK = "https://leerealty.example/book"
LISTING_URL = "https://leerealty.example/listings/12-elm"
PERSONA_PHONE = "+14155550100"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Can I talk to a real person?", rules.PERSON),
        ("I'd rather SPEAK TO AN AGENT", rules.PERSON),
        ("are you a bot", rules.PERSON),
        ("call me tomorrow", rules.PERSON),
        ("What's your commission?", rules.COMMISSION),
        ("my lawyer says no", rules.LEGAL),
        ("is that legal?", rules.LEGAL),
        ("do I need a mortgage pre-approval", rules.LENDING),
        ("what interest rates are you seeing", rules.LENDING),
        ("how much is the down payment", rules.LENDING),
        ("How are the schools there?", rules.FAIR_HOUSING),
        ("is it a safe neighborhood", rules.FAIR_HOUSING),
        ("what's the crime like", rules.FAIR_HOUSING),
        ("what are the demographics of the area", rules.FAIR_HOUSING),
        ("what kind of people live there", rules.FAIR_HOUSING),
        ("¿Cómo son las escuelas?", rules.FAIR_HOUSING),
        ("¿Es seguro el barrio?", rules.FAIR_HOUSING),
    ],
)
def test_the_service_reads_a_request_for_a_person_or_a_question_it_must_not_answer(text, reason):
    assert rules.handoff_reason(text) == reason


@pytest.mark.parametrize(
    "text",
    [
        "hi",
        "Is the Elm St house still available?",
        "I want to talk to you about selling",  # talking to the assistant is fine
        "my son-in-law is moving here",
        "is it near a school bus stop?",  # where, not how good
        "",
        None,
        "x" * 5000,  # longer than any delivered text: not read
    ],
)
def test_ordinary_texts_are_no_handoff(text):
    assert rules.handoff_reason(text) is None


def test_the_disclosure_opens_and_the_signature_ends_the_reply():
    text = rules.assemble("Hi Dana!", "Automated assistant.", "- Ava", disclose=True)
    assert text == "Automated assistant. Hi Dana!\n- Ava"
    assert rules.assemble("Hi Dana!", "Automated assistant.", None, disclose=False) == "Hi Dana!"


@pytest.mark.parametrize(("segments", "gsm7", "ucs2"), [(1, 160, 70), (2, 306, 134), (3, 459, 201)])
def test_segments_hold_153_gsm7_or_67_ucs2_characters_each(segments, gsm7, ucs2):
    assert rules.refusal("a" * gsm7, [], None, segments_allowed=segments) is None
    assert rules.refusal("a" * (gsm7 + 1), [], None, segments_allowed=segments) == "too_long"
    # An extension character takes two septets.
    assert rules.refusal("€" * (gsm7 // 2), [], None, segments_allowed=segments) is None
    assert rules.refusal("€" * (gsm7 // 2 + 1), [], None, segments_allowed=segments)
    # One character outside GSM-7 (á, as most Spanish has) makes the whole text UCS-2.
    assert rules.refusal("á" * ucs2, [], None, segments_allowed=segments) is None
    assert rules.refusal("á" * ucs2 + "a", [], None, segments_allowed=segments) == "too_long"
    # An emoji is two UTF-16 units.
    assert rules.refusal("😀" * (ucs2 // 2), [], None, segments_allowed=segments) is None
    assert rules.refusal("😀" * (ucs2 // 2 + 1), [], None, segments_allowed=segments)


@pytest.mark.parametrize(
    ("typed", "sent"),
    [
        ("It’s “ready” – come by…", 'It\'s "ready" - come by...'),
        ("‘Sat’ — 11 am", "'Sat' - 11 am"),
        ("¿Busca comprar? Ñandú", "¿Busca comprar? Ñandú"),  # the rest as it is
    ],
)
def test_typographic_quotes_apostrophes_and_dashes_go_out_as_gsm7(typed, sent):
    assert rules.sendable(typed) == sent


def test_the_mapped_text_is_what_is_counted():
    typed = "’" * 459  # UCS-2 as typed: 459 units, far past 201
    assert rules.refusal(rules.sendable(typed), [], None, segments_allowed=3) is None


def test_the_budget_the_model_is_told_leaves_out_what_the_service_adds():
    fixed = rules.assemble("", "Automated assistant.", "- Ava", disclose=True)
    assert rules.characters_left(fixed, 3) == (459 - len(fixed), 201 - len(fixed))
    # A fixed text that is UCS-2 itself leaves the GSM-7 budget at the UCS-2 one.
    spanish = rules.assemble("", "Asistente automático.", "- Ava", disclose=True)
    assert rules.characters_left(spanish, 3) == (201 - len(spanish), 201 - len(spanish))


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        (f"Book here: {PERSONA_LINK}", None),
        (f"See {LISTING_URL}.", None),
        ("See leerealty.example/listings/12-elm!", None),  # an allowed link without scheme
        ("See https://evil.example/x", "link"),
        ("See evil.example", "link"),
        ("See www.evil.example/page", "link"),
        (f"Call us at {PERSONA_PHONE}", None),
        ("Call us at (415) 555-0100", None),  # the persona's number, written otherwise
        ("Call me at (415) 555-0199", "phone"),
        ("Write to sam@leerealty.example", "email"),
        ("It is listed at $612,000: 3 beds, 2.5 baths, 1,850 sqft, zip 94110.", None),
        ("a" * 460, "too_long"),
    ],
)
def test_a_reply_carries_only_the_allowed_links_and_number(text, broken):
    assert rules.refusal(text, [PERSONA_LINK, LISTING_URL], PERSONA_PHONE) == broken


def test_without_a_persona_phone_no_number_may_go_out():
    assert rules.refusal("Call (415) 555-0100", [], None) == "phone"
