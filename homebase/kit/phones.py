"""Phone normalization to E.164, used to match the same person across records."""

from functools import lru_cache

import phonenumbers

DEFAULT_REGION = "US"


# A pure function of its text, and parsing is costly (docs/performance.md, "Ids, phones,
# the rate limiter").
@lru_cache(maxsize=4096)
def to_e164(raw: str | None, region: str = DEFAULT_REGION) -> str | None:
    """E.164 when the text is a possible number, else None."""
    if not raw:
        return None
    try:
        number = phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_possible_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


@lru_cache(maxsize=4096)
def is_valid_number(raw: str, region: str) -> bool:
    """Whether the text is a valid number (phonenumbers' validity check, stricter than
    `to_e164`'s possible-number check): `n/a`, `12345`, `555-CALL-NOW` are not."""
    try:
        number = phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException:
        return False
    return bool(phonenumbers.is_valid_number(number))
