"""Phone normalization to E.164, used to match the same person across records."""

from functools import cache, lru_cache

import phonenumbers
from phonenumbers import PhoneMetadata

DEFAULT_REGION = "US"


# A pure function of its text, and parsing is costly (docs/performance.md, "Ids, phones,
# the rate limiter"): each text is parsed once, whichever of the two questions below
# asks first (a new contact's phone asks both). The number is never changed after.
@lru_cache(maxsize=4096)
def _parsed(raw: str, region: str) -> phonenumbers.PhoneNumber | None:
    try:
        return phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException:
        return None


@lru_cache(maxsize=4096)
def to_e164(raw: str | None, region: str = DEFAULT_REGION) -> str | None:
    """E.164 when the text is a possible number, else None."""
    if not raw:
        return None
    number = _parsed(raw, region)
    if number is None or not phonenumbers.is_possible_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


# Cached as to_e164 is: every create or update that sends a phone asks.
@lru_cache(maxsize=4096)
def is_valid_number(raw: str, region: str) -> bool:
    """Whether the text is a valid number (phonenumbers' is_valid_number: a number that
    is assigned in its region's plan, not only one of a possible length), numbers without
    a country code read in `region`. Stricter than to_e164, which keeps every possible
    number for matching: a stored opt-out must match whatever was written. What the API
    warns about (docs/decisions.md, "Phone numbers: E.164 and warnings")."""
    number = _parsed(raw, region)
    if number is None:
        return False
    main = _main_region(number.country_code)
    if main is not None and phonenumbers.is_valid_number_for_region(number, main):
        return True
    return phonenumbers.is_valid_number(number)


@cache
def _main_region(country_code: int) -> str | None:
    """The region a number of `country_code` is checked against first, when several
    regions share the code (+1: US and 24 others), else None. phonenumbers'
    is_valid_number first finds the number's region, trying the code's regions in turn,
    then checks the number there: a US number's type is worked out twice. When the first
    region names no leading digits (US, GB, IT, AU...), phonenumbers picks it for every
    number valid there; so a number valid there is valid, and is_valid_number is asked
    only about the rest."""
    regions = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(country_code, ())
    if len(regions) < 2:
        return None
    metadata = PhoneMetadata.metadata_for_region(regions[0])
    return regions[0] if metadata is not None and metadata.leading_digits is None else None
