"""A recipient's possible local time zones, from the number's area code (phonenumbers).

An empty answer means "unknown": the quiet-hours gate then fails closed. A number
whose prefix spans several zones (e.g. North Dakota's 701, or a toll-free number,
which phonenumbers maps to every NANP zone) returns them all.
"""

from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import phonenumbers
from phonenumbers import timezone as number_timezones

UNKNOWN = "Etc/Unknown"


@lru_cache(maxsize=4096)
def zones_for_number(phone_e164: str | None) -> tuple[str, ...]:
    if not phone_e164:
        return ()
    try:
        number = phonenumbers.parse(phone_e164, None)
    except phonenumbers.NumberParseException:
        return ()
    names = [name for name in number_timezones.time_zones_for_number(number) if name != UNKNOWN]
    resolved = []
    for name in names:
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            return ()  # a zone we cannot evaluate makes the whole answer unknown
        resolved.append(name)
    return tuple(resolved)
