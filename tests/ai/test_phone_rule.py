"""The AI's phone rule (homebase/ai/phone_rule.py), both ways, as docs/ai.md's table
states it: no phone number but the persona's, however it is disguised, and numbers that
are no phone (amounts, dates, times, ZIP+4) go out."""

import pytest

from homebase.ai import rules

PHONE = "+14155550100"
LINKS = ["https://leerealty.example/homes/"]

REFUSED = [
    "Call 415_555_0199",
    "Call 415-555-O199",
    "Call 4l5 555 0l99",
    "Call 415-555-0I99",
    "Call 1-800-FLOWERS",
    "Call 1 888 GO-FEDEX",
    "Call 800-FLOWERS",
    "Call 1-800-356-9377 now",
    "Call 020 7946 0958",
    "Tel: +44 (0)20 7946 0958",
    "+44 20 7946 0958",
    "Text 4155550199",
    "Text 415 555 0199 now",
    "Text (415) 555-0199",
    "Call 555-0199",
    "call 4 1 5 5 5 5 0 1 9 9",
    "call 415 / 555 / 0199",
    "call [415] 555.0199",
    "call 415 \u2012 555 \u2012 0199",  # a figure dash
    "call 415\u00b7555\u00b70199",  # middle dots
    "call 415\u200b555\u200b0199",  # zero-width spaces
    "Text \uff14\uff11\uff15\uff15\uff15\uff15\uff10\uff11\uff19\uff19",  # full-width digits
    "Call O415 555 0199",  # an O before the run is a letter; the run is still ten digits
    "Call +1 415 555 0100 2",  # the persona's number with a digit more
    "Cost 4155550199 USD",
    "Call 4-15-55 501-99",  # part of it reads as a date, not the whole run
    "Text 4155550199 2 3 4 5 6 7 8",  # longer than fifteen digits
    "MLS 23456789",
    "Call 415-555-0199k",  # a number is no amount because a k follows
    "Call 4155550199/leerealty.example/homes/",  # before an allowed link: still read
    "Call 4155550199https://leerealty.example/homes/",
]

SENT = [
    "Call (415) 555-0100",  # the persona's own, written any way
    "Call 415.555.0100",
    "Call +1 415 555 0100 or text",
    "Call 1 (415) 555-0100",
    "Listed at $1,250,000",
    "Listed at $1 250 000",
    "Listed at \u20ac1.250.000",
    "Listed at 1.250.000 \u20ac",
    "Price 1250000K",
    "$1.2M to $1.5M, or 850k-900k",
    "It is listed at $612,000: 3 beds, 2.5 baths, 1,850 sqft, zip 94110.",
    "Order 1,250,000",
    "Open 05/14/2026 10:30 am",
    "Open 14.05.2026 or 05/14/26",
    "Open 2026-05-14 - 2026-05-16",
    "Open 2026-05-14T10:30",
    "Built 2019-2021",
    "ZIP 94110-1234",
    "Open Sat 10am-12pm, 12 Elm St",
    "It is 1 of 2 homes on the lot, 3 beds",
    "Hello 415!",
    "See https://leerealty.example/homes/4155550199",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_phone_number_however_disguised_is_refused(text):
    assert rules.refusal(text, LINKS, PHONE) == "phone"


@pytest.mark.parametrize("text", SENT)
def test_the_persona_s_number_and_numbers_that_are_no_phone_go_out(text):
    assert rules.refusal(text, LINKS, PHONE) is None


def test_a_toll_free_persona_number_passes_in_letters_or_digits():
    toll_free = "+18003569377"
    for text in ("Call 1-800-FLOWERS", "Call 1-800-356-9377 now", "Call 1 800 356 9377."):
        assert rules.refusal(text, [], toll_free) is None, text
    assert rules.refusal("Call 1-800-FLOWERZ", [], toll_free) == "phone"


def test_without_a_persona_phone_no_number_goes_out():
    assert rules.refusal("Call (415) 555-0100", [], None) == "phone"
    assert rules.refusal("Call 1-800-FLOWERS", [], None) == "phone"
