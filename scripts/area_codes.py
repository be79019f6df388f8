"""Writes homebase/compliance/area_codes.py: the US state of each geographic area code,
from phonenumbers' geocoder data (English descriptions: "Texas", "San Francisco, CA").

The service reads the small table it writes instead of importing the geocoder, whose
data for every country and language costs each process about 100 MB and 0.3 s to load
(docs/messaging.md, "Lawful hours by state"). An area code whose exchanges the data
places in more than one state (201: New Jersey, one exchange "New York, NY") takes the
state most of them name, the area code's own. tests/compliance/test_area_codes.py fails
when the installed phonenumbers says otherwise; then run:

    .venv/bin/python -m scripts.area_codes
"""

from collections import Counter, defaultdict
from functools import cache
from pathlib import Path

import phonenumbers

TARGET = Path(__file__).resolve().parent.parent / "homebase" / "compliance" / "area_codes.py"

_STATES = {
    "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA",
    "colorado": "CO", "connecticut": "CT", "delaware": "DE", "florida": "FL", "georgia": "GA",
    "hawaii": "HI", "idaho": "ID", "illinois": "IL", "indiana": "IN", "iowa": "IA",
    "kansas": "KS", "kentucky": "KY", "louisiana": "LA", "maine": "ME", "maryland": "MD",
    "massachusetts": "MA", "michigan": "MI", "minnesota": "MN", "mississippi": "MS",
    "missouri": "MO", "montana": "MT", "nebraska": "NE", "nevada": "NV",
    "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY",
    "north carolina": "NC", "north dakota": "ND", "ohio": "OH", "oklahoma": "OK",
    "oregon": "OR", "pennsylvania": "PA", "rhode island": "RI", "south carolina": "SC",
    "south dakota": "SD", "tennessee": "TN", "texas": "TX", "utah": "UT", "vermont": "VT",
    "virginia": "VA", "washington": "WA", "washington state": "WA", "west virginia": "WV",
    "wisconsin": "WI", "wyoming": "WY", "washington d.c.": "DC", "district of columbia": "DC",
}  # fmt: skip
_CODES = frozenset(_STATES.values())

_HEADER = '''"""The US state of each geographic area code: the presumption state telemarketing laws
make (Florida's names the area code), read by compliance/lawful_hours.state_for_number.
Written by scripts/area_codes.py from phonenumbers' geocoder data; do not edit by hand."""

STATE_BY_AREA_CODE = {
'''


def state_of(description: str) -> str | None:
    """The two-letter state a geocoder description names ("Texas", "Orem, UT"), or None."""
    place = description.strip()
    if place.lower() in _STATES:
        return _STATES[place.lower()]
    tail = place.rsplit(",", 1)[-1].strip().upper()
    return tail if tail in _CODES else None


@cache
def _in_us(area: str) -> bool:
    """Whether the +1 area code is the US's (not Canada's, Puerto Rico's...)."""
    number = phonenumbers.parse(f"+1{area}2000000", None)
    return phonenumbers.region_code_for_number(number) == "US"


def table() -> dict[str, str]:
    """Each US area code the geocoder data places, with the state most of its entries name."""
    from phonenumbers.geodata import GEOCODE_DATA  # the whole data: only here, never served

    named: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for prefix, descriptions in GEOCODE_DATA.items():
        if not prefix.startswith("1") or len(prefix) < 4 or "en" not in descriptions:
            continue
        area = prefix[1:4]
        if _in_us(area) and (state := state_of(descriptions["en"])) is not None:
            named[area][state] += 1
    return {
        area: min(counts, key=lambda state: (-counts[state], state))
        for area, counts in sorted(named.items())
    }


def source(states: dict[str, str]) -> str:
    pairs = [f'"{area}": "{state}",' for area, state in states.items()]
    lines = [" ".join(pairs[at : at + 7]) for at in range(0, len(pairs), 7)]
    return _HEADER + "".join(f"    {line}\n" for line in lines) + "}  # fmt: skip\n"


if __name__ == "__main__":
    states = table()
    TARGET.write_text(source(states))
    print(f"wrote {TARGET} ({len(states)} area codes)")
