"""How personal data looks to a credential without contacts:read:pii (and always in
webhook payloads): the last four digits of a phone, the first character and the domain
of an email address.

A phone is free text (up to 32 characters), so every other letter and digit of it is
masked too (a vanity number such as 1-800-FLOWERS, or an extension), leaving only its
punctuation and spacing; a phone of four digits or fewer keeps its digits.

Free-form values (a lead's `context`, a webhook payload) are masked by value, not by the
names of their members: `mask_freeform` (below) finds the phone numbers and email
addresses written inside every string and masks each by the rules above
(docs/decisions.md, "Masking free-form values")."""

import re
import string
from typing import Any, overload

from phonenumbers import Leniency, PhoneNumberMatcher

from homebase.kit.emails import EMAIL_IN_TEXT_PATTERN

MASK = "*"
_ASCII_DIGITS = "0123456789"
# For ASCII text: bytes.translate reads a 256-byte table, str.translate a dict for
# every character, called for every masked phone of a page (docs/performance.md,
# "Masking").
_LETTERS = string.ascii_letters.encode()
_STARS = bytes.maketrans(_ASCII_DIGITS.encode() + _LETTERS, MASK.encode() * 62)
_LETTER_STARS = bytes.maketrans(_LETTERS, MASK.encode() * 52)


def _masked(text: str, table: bytes) -> str:
    return text.encode().translate(table).decode()


@overload
def mask_phone(phone: str) -> str: ...
@overload
def mask_phone(phone: None) -> None: ...
@overload
def mask_phone(phone: str | None) -> str | None: ...
def mask_phone(phone: str | None) -> str | None:
    if not phone:
        return phone
    if phone.isascii():
        # Rendering a page of 50 contacts calls this 50 times, so the common cases are
        # C-level translates. Most phones end in their last four digits: mask the rest.
        if phone[-4:].isdigit():  # (_masked, written out: one call fewer a phone)
            return phone[:-4].encode().translate(_STARS).decode() + phone[-4:]
        # Otherwise find where the last four digits begin (an extension or letters may
        # follow them) and mask every letter and digit before, and the letters after.
        index, found = len(phone), 0
        while index and found < 4:
            index -= 1
            if phone[index] in _ASCII_DIGITS:
                found += 1
        return _masked(phone[:index], _STARS) + _masked(phone[index:], _LETTER_STARS)
    return mask_phone_by_character(phone)


def mask_phone_by_character(phone: str) -> str:
    """The rule one character at a time: any script's digits and letters. mask_phone's
    ASCII paths give the same result faster (tests/kit/test_masking.py holds them equal)."""
    digits_seen = 0
    characters = list(phone)
    total_digits = sum(character.isdigit() for character in characters)
    for index, character in enumerate(characters):
        if character.isdigit():
            digits_seen += 1
            if digits_seen <= total_digits - 4:
                characters[index] = MASK
        elif character.isalpha():
            characters[index] = MASK
    return "".join(characters)


@overload
def mask_email(email: str) -> str: ...
@overload
def mask_email(email: None) -> None: ...
@overload
def mask_email(email: str | None) -> str | None: ...
def mask_email(email: str | None) -> str | None:
    if not email:
        return email
    local, at, domain = email.partition("@")
    if not at:
        return _HIDDEN
    return f"{local[:1]}{_HIDDEN}@{domain}"


_HIDDEN = MASK * 3


# -- Free-form values ------------------------------------------------------------------------

# Digits the phone matcher may read in one value: it is slow per candidate, so a long
# member of phone-like digit groups would hold the request for its whole length. Past the
# budget a string is masked by _DIGIT_RUN instead (every run of seven digits or more, in
# linear time): more is masked, never less. A real lead's context holds a few numbers.
MATCHER_DIGITS = 256
PHONE_REGION = "US"  # numbers written without a country code are read as US numbers

# The cheap test every string passes first: fewer than seven digits and no "@" cannot
# hold a phone number the matcher accepts or an address (\d is any script's digit, as the
# matcher reads them too).
_SEVEN_DIGITS = re.compile(r"(?:\D*\d){7}")
_DIGIT = re.compile(r"\d")
# Runs of digits with up to three other signs (spaces, punctuation of any script) between
# them, for a string past the budget.
_DIGIT_RUN = re.compile(r"\d(?:\W{0,3}\d)*")
_EMAIL = re.compile(EMAIL_IN_TEXT_PATTERN)
# Values the service writes itself, in every webhook payload: ids (kit/ids.py) and
# timestamps exactly as kit/clock.isoformat writes them (UTC, milliseconds, "Z"). The
# matcher finds no number in either shape (tests/kit/test_masking.py; it does in some
# with a "-08:00" offset, which are therefore not skipped); skipping them saves it tens
# of microseconds each.
_GENERATED = re.compile(
    r"[a-z]{2,8}_[0-9a-hjkmnp-tv-z]{26}|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",
    re.ASCII,
)


def mask_freeform(value: Any, *, phone_members: frozenset[str] = frozenset()) -> Any:
    """A JSON value with every phone number and email address inside its strings masked
    (mask_phone / mask_email applied to the matched text), at any depth. Keys, numbers,
    booleans and null are left as they are; the value is not modified (a copy is made
    where something changes). The one rule for every free-form member a credential without
    contacts:read:pii sees and for every webhook payload.

    `phone_members`: names of members that hold a phone number whole (a webhook payload's
    typed `phone`, `from`, ...); their strings, and those of lists under them, are masked
    whole by mask_phone, so a number too short for the matcher is masked too. An address
    there (an email's `to`) is masked by value like any other string."""
    return _walk(value, [MATCHER_DIGITS], phone_members, None)


def _walk(value: Any, budget: list[int], phone_members: frozenset[str], key: str | None) -> Any:
    if isinstance(value, str):
        if key in phone_members and "@" not in value:
            return mask_phone(value)
        return _mask_text(value, budget)
    if isinstance(value, dict):
        return {name: _walk(item, budget, phone_members, name) for name, item in value.items()}
    if isinstance(value, list):
        return [_walk(item, budget, phone_members, key) for item in value]
    return value


def _mask_text(text: str, budget: list[int]) -> str:
    has_at = "@" in text
    if not has_at and _SEVEN_DIGITS.match(text) is None:
        return text
    if _GENERATED.fullmatch(text):
        return text
    if has_at:
        text = _mask_emails(text)  # first: a number as an address's local part goes with it
        if _SEVEN_DIGITS.match(text) is None:
            return text
    digits = len(_DIGIT.findall(text))
    if digits > budget[0]:
        return _DIGIT_RUN.sub(_mass_phone, text)
    budget[0] -= digits
    pieces: list[str] = []
    end = 0
    for match in PhoneNumberMatcher(text, PHONE_REGION, leniency=Leniency.VALID):
        pieces += (text[end : match.start], mask_phone(match.raw_string) or "")
        end = match.end
    return "".join(pieces) + text[end:] if pieces else text


def _mass_phone(match: re.Match[str]) -> str:
    run = match.group()
    return (mask_phone(run) or "") if _SEVEN_DIGITS.match(run) else run


def _mask_emails(text: str) -> str:
    pieces: list[str] = []
    end = 0
    for match in _EMAIL.finditer(text):
        pieces += (text[end : match.start()], mask_email(match.group()) or "")
        end = match.end()
    return "".join(pieces) + text[end:] if pieces else text
