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
