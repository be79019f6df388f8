"""How personal data looks to a credential without contacts:read:pii (and always in
webhook payloads): the last four digits of a phone, the first character and the domain
of an email address.

A phone is free text (up to 32 characters), so every other letter and digit of it is
masked too (a vanity number such as 1-800-FLOWERS, or an extension), leaving only its
punctuation and spacing; a phone of four digits or fewer keeps its digits."""

import string

MASK = "*"
_ASCII_DIGITS = "0123456789"
# For ASCII text: bytes.translate reads a 256-byte table, str.translate a dict for
# every character (twice the cost; a page of 50 masked phones spent 10% of its CPU here).
_LETTERS = string.ascii_letters.encode()
_STARS = bytes.maketrans(_ASCII_DIGITS.encode() + _LETTERS, MASK.encode() * 62)
_LETTER_STARS = bytes.maketrans(_LETTERS, MASK.encode() * 52)


def _masked(text: str, table: bytes) -> str:
    return text.encode().translate(table).decode()


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


def mask_email(email: str | None) -> str | None:
    if not email:
        return email
    local, at, domain = email.partition("@")
    if not at:
        return _HIDDEN
    return f"{local[:1]}{_HIDDEN}@{domain}"


_HIDDEN = MASK * 3
