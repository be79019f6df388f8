"""What an SMS's encoding holds: the one place that knows GSM-7 (3GPP TS 23.038).

- `to_gsm7(text)`: typographic quotes, apostrophes, dashes, the ellipsis and the
  non-breaking spaces a model or a phone keyboard writes, mapped to their GSM-7 look-alikes
  (`’` to `'`, `“` to `"`, `–` to `-`, `…` to `...`), so a text that needs no other
  character stays GSM-7 (160 characters a segment, not UCS-2's 70). The mapped text is
  what is counted and what is sent.
- `is_gsm7(text)`, `units(text)`: the encoding a text needs and its length in it (an
  extension character such as `€` takes two septets; UCS-2 counts UTF-16 units, so an
  emoji takes two).
- `limits(segments)`: what `segments` segments hold, in GSM-7 and in UCS-2: one segment
  160 / 70, a concatenated one 153 / 67 (its 7-byte header takes the rest).
"""

GSM7_SINGLE, UCS2_SINGLE = 160, 70
GSM7_PART, UCS2_PART = 153, 67
_BASIC = frozenset(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ ÆæßÉ!\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
_EXTENDED = frozenset("^{}\\[~]|€\f")  # two septets each (an escape, then the char)
_TYPOGRAPHIC = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
        **dict.fromkeys("\u00a0\u2007\u202f\u2009\u200a", " "),
        "\u2026": "...",
    }
)


def to_gsm7(text: str) -> str:
    """`text` with its typographic quotes, apostrophes, dashes, ellipses and narrow or
    non-breaking spaces in GSM-7 (every other character as it is)."""
    return text.translate(_TYPOGRAPHIC)


def is_gsm7(text: str) -> bool:
    return all(char in _BASIC or char in _EXTENDED for char in text)


def ucs2_units(text: str) -> int:
    """`text`'s length in UCS-2 as carriers count it: UTF-16 units (an emoji takes two)."""
    return len(text.encode("utf-16-le")) // 2


def units(text: str) -> tuple[bool, int]:
    """Whether `text` is GSM-7, and its length in its encoding (septets or UTF-16 units)."""
    if is_gsm7(text):
        return True, sum(2 if char in _EXTENDED else 1 for char in text)
    return False, ucs2_units(text)


def limits(segments: int) -> tuple[int, int]:
    """(GSM-7 septets, UCS-2 units) that `segments` SMS segments hold."""
    if segments <= 1:
        return GSM7_SINGLE, UCS2_SINGLE
    return segments * GSM7_PART, segments * UCS2_PART


def fits(text: str, segments: int) -> bool:
    gsm7, used = units(text)
    gsm7_limit, ucs2_limit = limits(segments)
    return used <= (gsm7_limit if gsm7 else ucs2_limit)
