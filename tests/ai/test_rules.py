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


def test_two_segments_gsm7_306_ucs2_134():
    assert rules.fits_two_segments("a" * 306) and not rules.fits_two_segments("a" * 307)
    # An extension character takes two septets.
    assert rules.fits_two_segments("€" * 153) and not rules.fits_two_segments("€" * 154)
    # One character outside GSM-7 makes the whole text UCS-2.
    assert rules.fits_two_segments("é" * 133 + "日") and not rules.fits_two_segments(
        "a" * 134 + "日"
    )
    # An emoji is two UTF-16 units.
    assert rules.fits_two_segments("😀" * 67) and not rules.fits_two_segments("😀" * 68)


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
        ("a" * 400, "too_long"),
    ],
)
def test_a_reply_carries_only_the_allowed_links_and_number(text, broken):
    assert rules.refusal(text, [PERSONA_LINK, LISTING_URL], PERSONA_PHONE) == broken


def test_without_a_persona_phone_no_number_may_go_out():
    assert rules.refusal("Call (415) 555-0100", [], None) == "phone"
