"""Which phone numbers an AI text may carry: the persona's `phone`, and no other
(docs/ai.md, "What may go out").

The text is read as a phone shows it: NFKC (full-width digits are digits), format
characters (zero-width spaces, joiners) removed, every dash of other scripts a `-`.

- **A phone-shaped run**: an optional `+`, then groups of digits with spaces, dots
  (`.`, `·`), dashes, underscores, slashes or brackets between them, holding seven digits
  or more. Inside a run (after its first digit and before its last), `O`/`o` read as 0
  and `l`/`I` as 1: `415-555-O199` is ten digits. A run of more than fifteen digits is
  refused too (it holds one).
- **A vanity number**: `1-8XX-` and then letters (`1-800-FLOWERS`, `1 888 GO FEDEX`), or
  a toll-free `8XX-` and capital letters (`800-FLOWERS`).
- **Not phones**, when the whole run is one: an amount after a currency sign or before
  `k`/`K`/`M` (`$1 250 000`, `€1.250.000`, `1250000K`), a date (`2026-05-14`,
  `05/14/2026`, `14.05.2026`, a range of two), a range of years (`2019-2021`), a ZIP+4
  (`94110-1234`); times (`10:30`, `2 pm`) are no part of a run. Comma-grouped numbers
  (`1,250,000`) never form one: a comma is no separator.
- **The persona's phone** passes, written any way that reads as the same E.164 number.
"""

import re
import unicodedata
from datetime import date

from homebase.kit.phones import to_e164

PHONE = "phone"
MIN_DIGITS = 7

_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58", "-"))
_SEPARATOR = r"[\s._/\\\-()\[\]{}\u00b7\u2022\u2027\u2219\u2044\u2215]"
_CONFUSABLE = "OolI"
_TO_DIGIT = str.maketrans("OolI", "0011")
# A run starts and ends with a digit; in between, separators and digits or confusables.
_RUN = re.compile(rf"(?:\+{_SEPARATOR}*)?\d(?:(?:{_SEPARATOR}|[\d{_CONFUSABLE}])*\d)?")
_TIME = re.compile(
    r"(?<![\d:])\d{1,2}(?::\d{2}){1,2}(?:\s?[AaPp]\.?[Mm]\.?)?(?![\d:])"
    r"|(?<![\d:])\d{1,2}\s?[AaPp]\.?[Mm]\b\.?"
)
# `1-8XX-` (any spacing of the prefix) and a tail of letters and digits, joined by dots or
# dashes, with two letters or more; or a toll-free `8XX-` and capital letters.
_VANITY = re.compile(
    r"(?<![\w+])(?:\+?1[\s.\-]*\(?8\d\d\)?[\s.\-]*"
    r"(?=[A-Za-z0-9.\-]*[A-Za-z][A-Za-z0-9.\-]*[A-Za-z])"
    r"[A-Za-z0-9](?:[.\-]?[A-Za-z0-9]){3,}"
    r"|\(?8(?:00|33|44|55|66|77|88)\)?-[A-Z]{3,}(?:[.\-]?[A-Z0-9])*)"
)
_CURRENCY_BEFORE = re.compile(r"[$€£¥₹]\s?$")
_CURRENCY_AFTER = re.compile(r"^\s?[$€£¥₹]")
_MULTIPLIER_AFTER = re.compile(r"^\s?[kKM](?![A-Za-z])")
_AMOUNT = re.compile(r"\d{1,3}(?:([ .])\d{3})(?:\1\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?")
_DATE = re.compile(
    r"(?P<y1>\d{4})(?P<s1>[-/.])(?P<m1>\d{1,2})(?P=s1)(?P<d1>\d{1,2})"
    r"|(?P<first>\d{1,2})(?P<s2>[-/.])(?P<second>\d{1,2})(?P=s2)(?P<y2>\d{4}|\d{2})"
)
_YEARS = re.compile(r"(19|20)\d\d\s?-\s?(19|20)\d\d")
_ZIP4 = re.compile(r"\d{5}-\d{4}")


def readable(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year if year >= 100 else 2000 + year, month, day)
    except ValueError:
        return False
    return True


def _is_date(text: str) -> bool:
    found = _DATE.fullmatch(text)
    if found is None:
        return False
    if found["y1"]:
        return _valid(int(found["y1"]), int(found["m1"]), int(found["d1"]))
    first, second, year = int(found["first"]), int(found["second"]), int(found["y2"])
    return _valid(year, first, second) or _valid(year, second, first)  # US or day first


def _is_dates(run: str) -> bool:
    """One date, or a range of two (`05/14/2026 - 05/16/2026`)."""
    if _is_date(run):
        return True
    for index, char in enumerate(run):
        left, right = run[:index].rstrip(" -"), run[index:].lstrip(" -")
        if char in " -" and _is_date(left) and _is_date(right):
            return True
    return False


def _not_a_phone(run: str, before: str, after: str) -> bool:
    if _is_dates(run) or _YEARS.fullmatch(run) or _ZIP4.fullmatch(run):
        return True
    amount = _AMOUNT.fullmatch(run) is not None
    return amount and bool(
        _CURRENCY_BEFORE.search(before)
        or _CURRENCY_AFTER.match(after)
        or _MULTIPLIER_AFTER.match(after)
    )


def _digits(run: str) -> str:
    digits = "".join(char for char in run.translate(_TO_DIGIT) if char.isdigit())
    return ("+" if run.startswith("+") else "") + digits


def check(text: str, allowed_phone: str | None) -> str | None:
    """PHONE when `text` carries a phone number other than `allowed_phone`, else None.
    `text` is what the link rule leaves (link_rule.check: allowed links blanked)."""
    text = _TIME.sub("#", readable(text))
    allowed = to_e164(allowed_phone) if allowed_phone else None
    for match in _VANITY.finditer(text):
        if allowed is None or to_e164(match.group().strip()) != allowed:
            return PHONE
    for match in _RUN.finditer(text):
        run = match.group()
        digits = _digits(run)
        if len(digits.lstrip("+")) < MIN_DIGITS:
            continue
        if _not_a_phone(run, text[: match.start()], text[match.end() :]):
            continue
        if allowed is None or to_e164(digits) != allowed:
            return PHONE
    return None
