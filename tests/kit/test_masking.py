"""Masking of phones and emails (kit/masking.py): what a credential without
contacts:read:pii and every webhook payload sees."""

import re
import string

import orjson
import phonenumbers
import pytest
from hypothesis import given
from hypothesis import strategies as st

from homebase.kit import emails, masking
from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_email, mask_freeform, mask_phone, mask_phone_by_character


@pytest.mark.parametrize(
    "phone, masked",
    [
        ("+1 415 555 0142", "+* *** *** 0142"),
        ("(415) 555-0142", "(***) ***-0142"),
        ("1-800-FLOWERS", "1-800-*******"),  # its only four digits show, letters never
        ("1-800-356-9377", "*-***-***-9377"),
        ("415-555-0142 ext 12", "***-***-**42 *** 12"),  # the last four digits, wherever they are
        ("0142", "0142"),
        ("12", "12"),
        ("call dana", "**** ****"),
        ("+٤١٥٥٥٥٠١٤٢", "+******٠١٤٢"),  # Arabic-Indic digits
        ("", ""),
        (None, None),
    ],
)
def test_mask_phone(phone, masked):
    assert mask_phone(phone) == masked


@given(st.text(alphabet=string.digits + string.ascii_letters + " +-().#*x", max_size=32))
def test_ascii_fast_paths_agree_with_the_rule_by_character(phone):
    assert mask_phone(phone) == (mask_phone_by_character(phone) if phone else phone)


@given(st.text(alphabet=string.digits + " +-()", min_size=5, max_size=32))
def test_at_most_the_last_four_digits_show(phone):
    shown = [character for character in mask_phone(phone) if character.isdigit()]
    assert shown == [character for character in phone if character.isdigit()][-4:]


@pytest.mark.parametrize(
    "email, masked",
    [
        ("dana.reyes@example.com", "d***@example.com"),
        (None, None),
    ],
)
def test_mask_email(email, masked):
    assert mask_email(email) == masked


# -- Free-form values (mask_freeform): by value, never by the member's name ---------------------


@pytest.mark.parametrize(
    "text, masked",
    [
        ("+1 650 253 0000", "+* *** *** 0000"),
        ("6502530000", "******0000"),
        ("call me at (415) 555-0142 after 5", "call me at (***) ***-0142 after 5"),
        ("text 415.555.0199 or 212 555 1234", "text ***.***.0199 or *** *** 1234"),
        ("+44 20 7946 0958", "+** ** **** 0958"),  # any country, written with its code
        ("650-253-0000 x12", "***-***-**00 *12"),  # mask_phone of the match, extension and all
        ("２１２５５５１２３４", "******１２３４"),  # fullwidth digits
        ("https://x.example/call?n=6502530000", "https://x.example/call?n=******0000"),
        ("dana@example.com", "d***@example.com"),
        (
            "Dana Reyes <dana.reyes@example.com>, cc ops@demo-realty.example",
            "Dana Reyes <d***@example.com>, cc o***@demo-realty.example",
        ),
        ("josé@exämple.com", "j***@exämple.com"),  # internationalised: masked too
        ("..dana@example.com", ".***@example.com"),  # not a valid address, masked all the same
        ("x" * 100 + "@example.com", "x***@example.com"),  # a local part of any length
        ("6502530000@sms.example.com", "6***@sms.example.com"),
        # Left as they are: too few digits, not a valid number, no address.
        ("94110", "94110"),
        ("1421 Sanchez St, San Francisco, CA 94110", "1421 Sanchez St, San Francisco, CA 94110"),
        ("order 1250000", "order 1250000"),
        ("203.0.113.7", "203.0.113.7"),
        ("2026-11-20T17:04:05.123Z", "2026-11-20T17:04:05.123Z"),
        ("12/11/2026 10:00", "12/11/2026 10:00"),
        ("con_01jd3v6k8h2k3m4n5p6q7r8s9t", "con_01jd3v6k8h2k3m4n5p6q7r8s9t"),
        ("@dana on x.example", "@dana on x.example"),
        ("dana@localhost", "dana@localhost"),  # no top-level label: not an address by the rule
    ],
)
def test_mask_freeform_masks_phones_and_addresses_inside_text(text, masked):
    assert mask_freeform(text) == masked


def test_mask_freeform_walks_every_depth_and_masks_values_only():
    value = {
        "tel": "(415) 555-0142",
        "sms": "4155550199",
        "contact_number": "+1 650 253 0000",
        "4155550142": "key, not value",
        "nested": [{"deeper": ["reach me on dana@example.com"]}],
        "price": 4155550142,  # a JSON number is not text: left as it is (docs/decisions.md)
        "flag": True,
        "none": None,
        "zip": "94110",
    }
    original = orjson.dumps(value)
    assert mask_freeform(value) == {
        **value,
        "tel": "(***) ***-0142",
        "sms": "******0199",
        "contact_number": "+* *** *** 0000",
        "nested": [{"deeper": ["reach me on d***@example.com"]}],
    }
    assert orjson.dumps(value) == original  # the input is not modified


def test_typed_members_keep_their_masking():
    """A whole phone member is masked by mask_phone alone, as before; a matched span by the
    same rule, so a typed member and the same number in free text look alike."""
    assert mask_freeform("+1 415 555 0142") == mask_phone("+1 415 555 0142")
    assert mask_freeform("dana.reyes@example.com") == mask_email("dana.reyes@example.com")


@given(st.from_regex(emails.EMAIL_PATTERN, fullmatch=True))
def test_every_address_the_email_rule_admits_is_found_whole(address):
    if emails.is_email(address):
        assert re.fullmatch(emails.EMAIL_IN_TEXT_PATTERN, address)
        assert mask_freeform(f"write to {address}, thanks") == (
            f"write to {mask_email(address)}, thanks"
        )


_BASE32 = "0123456789abcdefghjkmnpqrstvwxyz"


@given(
    st.text(alphabet="0123456789" * 6 + _BASE32, min_size=26, max_size=26),
    st.sampled_from(["con", "lea", "usr", "wsp", "evt", "tok"]),
    st.datetimes(),
)
def test_the_shapes_left_to_the_service_hold_no_number_the_matcher_finds(body, prefix, moment):
    """Ids and timestamps as the service writes them skip the matcher; it would find
    nothing in them anyway, so skipping them changes no output."""
    for text in (f"{prefix}_{body}", isoformat(moment)):
        assert masking._GENERATED.fullmatch(text), text
        found = phonenumbers.PhoneNumberMatcher(text, "US", leniency=phonenumbers.Leniency.VALID)
        assert list(found) == [], text


def test_a_timestamp_with_an_offset_is_not_skipped():
    """The matcher reads "31.000-08" in this one as a number: only the service's own shape
    (UTC, "Z") is left out."""
    text = "2000-01-01T00:00:31.000-08:00"
    assert not masking._GENERATED.fullmatch(text)
    assert mask_freeform(text) != text


def test_strings_without_seven_digits_or_an_at_sign_are_returned_as_they_are():
    for text in ("", "94110", "555-0142", "San Francisco", "a1b2c3d4e5f6"):
        assert mask_freeform(text) is text


def test_past_the_matcher_budget_every_number_is_still_masked():
    """A value with more digits than the matcher may read (a hostile 16 KiB context) is
    masked run by run: more is masked, never less, and the work stays linear."""
    phones = [f"415-555-{n:04d}" for n in range(200)]
    value = {"numbers": phones, "text": " ".join(phones)}
    assert sum(character.isdigit() for character in str(value)) > masking.MATCHER_DIGITS
    result = mask_freeform(value)
    assert not re.search(r"\d{5}|\d{3}\D{1,3}\d{3}\D{1,3}\d{4}", str(result))
    assert result["numbers"][-1] == "***-***-0199"


@pytest.mark.parametrize(
    "text",
    [
        "1" * 16_000,
        "415-555-0142 " * 1_230,
        "6502530000 " * 1_454,
        "a." * 7_998 + " @",
        "a@" * 8_000,
        "a@" + "b." * 7_998,
        ("x" * 63 + "@") * 250,
        "dana@example.com " * 940,
    ],
)
def test_hostile_strings_are_masked_in_bounded_work(text):
    """Each finishes (the matcher's budget, the address pattern's bounded repetitions:
    docs/decisions.md, "Masking free-form values") and leaves no run of digits longer than four."""
    result = mask_freeform(text)
    assert not re.search(r"\d{5}", result) and "dana@" not in result
