"""Masking of phones and emails (kit/masking.py): what a credential without
contacts:read:pii and every webhook payload sees."""

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from homebase.kit.masking import mask_email, mask_phone, mask_phone_by_character


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
