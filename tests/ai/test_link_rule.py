"""The AI's link and email rule (homebase/ai/link_rule.py), as docs/ai.md's table states
it: a reply may carry a link only when it is one of the allowed links, and no address."""

import pytest

from homebase.ai import link_rule, rules

BOOK = "https://leerealty.example/book"
HOMES = "https://leerealty.example/homes/"  # ends with "/": everything below it
TIKTOK = "https://www.tiktok.com/@leerealty"
ALLOWED = [BOOK, HOMES, TIKTOK]
PHONE = "+14155550100"

SENT = [
    "Book here: https://leerealty.example/book.",
    "See leerealty.example/book!",
    "LEEREALTY.EXAMPLE/book works",  # a host's case does not matter
    "leerealty%2Eexample/book",  # the same link, escaped
    "https://leerealty.example/book/",  # a trailing slash aside
    "https://leerealty.example:443/book",  # the scheme's own port
    "https://leerealty.example./book",  # the host's root dot
    "(https://leerealty.example/book)",
    "Details:leerealty.example/book",
    "https://leerealty.example/homes/",
    "https://leerealty.example/homes",
    "https://leerealty.example/homes/7-oak",
    "https://leerealty.example/homes/4155550199",  # digits inside an allowed link
    "https://www.tiktok.com/@leerealty",
    "www.tiktok.com/@leerealty",
    "It is listed at $1.2M, 3.5 baths, e.g. a.m. U.S. Ph.D. 1,850 sq. ft.",
    "@leerealty on TikTok",
    "Open Mon.-Fri. 9-5, 12 Elm St.",
]

REFUSED = [
    ("https://evil.example/@x", "link"),
    ("Pay at paypal.me/@agency", "link"),
    ("Follow tiktok.com/@x", "link"),
    ("tiktok.com/@leerealty", "link"),  # www. is part of the host
    ("https://www.tiktok.com/@leerealty/video", "link"),  # below a link without "/"
    ("https://leerealty.example/book?ref=x", "link"),
    ("https://leerealty.example/book#pay", "link"),
    ("https://leerealty.example/book/extra", "link"),
    ("https://leerealty.example/homesick", "link"),
    ("https://leerealty.example/homes/../admin", "link"),
    ("https://leerealty.example/homes/%2e%2e/admin", "link"),
    ("https://leerealty.example/listings/4155550199", "link"),
    ("http://leerealty.example/book", "link"),  # not the allowed link's scheme
    ("ftp://leerealty.example/book", "link"),
    ("leerealty.example:8080/book", "link"),
    ("https://leerealty.example@evil.example/book", "link"),
    ("https://user:pw@leerealty.example/book", "link"),
    ("leerealty.example\\@evil.example", "link"),
    ("x@evil.example/pay", "link"),
    ("See https://evil.example/x", "link"),
    ("See evil.example", "link"),
    ("See www.evil.example/page", "link"),
    ("//evil.example", "link"),
    ("evil%2Eexample", "link"),
    ("https://evil%2Eexample/x", "link"),
    ("evil%252Eexample", "link"),  # escaped twice
    ("evil\u3002example", "link"),  # the ideographic full stop is a dot
    ("evil\u200b.example", "link"),  # a zero-width space
    ("\uff45\uff56\uff49\uff4c.example", "link"),  # full-width letters
    ("leer\u0435alty.example/book", "link"),  # a Cyrillic е: another host
    ("b\u00fccher.example", "link"),
    ("xn--leerealty-xyz.example", "link"),
    ("lee_realty.example/book", "link"),  # a host that does not encode
    ("203.0.113.7/pay", "link"),
    ("https://[::1]/pay", "link"),
    ("https://localhost/pay", "link"),
    ("javascript:alert(1)", "link"),
    ("data:text/html,pay", "link"),
    ("Hi Dana.Thanks", "link"),  # reads as a host: refused, never guessed
    ("sam@leerealty.example", "email"),
    ("Write to sam@leerealty.example.", "email"),
    ("sam%40leerealty.example", "email"),
    ("mailto:sam@leerealty.example", "email"),
    ("contact:sam@leerealty.example", "email"),
    ("s\u200bam@leerealty.example", "email"),
]


@pytest.mark.parametrize("text", SENT)
def test_an_allowed_link_and_ordinary_text_go_out(text):
    assert rules.refusal(text, ALLOWED, PHONE) is None


@pytest.mark.parametrize(("text", "broken"), REFUSED)
def test_any_other_link_or_an_address_is_refused(text, broken):
    assert rules.refusal(text, ALLOWED, PHONE) == broken


def test_a_link_with_a_query_or_fragment_passes_only_with_its_own():
    allowed = ["https://leerealty.example/book?ref=sms#top"]
    assert rules.refusal("https://leerealty.example/book?ref=sms#top", allowed, None) is None
    assert rules.refusal("https://leerealty.example/book", allowed, None) is None
    assert rules.refusal("https://leerealty.example/book?ref=x", allowed, None) == "link"
    assert rules.refusal("https://leerealty.example/book#other", allowed, None) == "link"


def test_a_root_link_allows_its_host_only_when_it_ends_with_a_slash():
    bare, below = ["https://leerealty.example"], ["https://leerealty.example/"]
    assert rules.refusal("leerealty.example", bare, None) is None
    assert rules.refusal("leerealty.example/pay", bare, None) == "link"
    assert rules.refusal("leerealty.example/pay", below, None) is None


def test_an_allowed_link_that_does_not_parse_allows_nothing():
    assert link_rule.allowed_links(["https://lee_realty.example/", "", "  "]) == ()
    assert rules.refusal("https://lee_realty.example/", ["https://lee_realty.example/"], None)


def test_an_international_host_compares_in_its_ascii_form():
    allowed = ["https://b\u00fccher.example/"]
    assert rules.refusal("https://xn--bcher-kva.example/x", allowed, None) is None
    assert rules.refusal("B\u00dcCHER.example/x", allowed, None) is None
    # IDNA 2008, as browsers: ß is not "ss".
    assert rules.refusal("fass.example", ["https://fa\u00df.example"], None) == "link"
