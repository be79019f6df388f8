"""The one email-address rule: which text is an address, and its canonical form.

Contacts validate their `email` with EMAIL_PATTERN; email sends accept `to` only when it
matches it too, and suppressions are stored and compared in canonical form. The pattern
admits one bare dot-atom address and nothing the mail library would read otherwise: no
comments, quoted local parts, display names, angle brackets, lists or whitespace, so the
address the gates check is the mailbox the mail is delivered to.
"""

import re

# Dot-atom local part (no leading, trailing or consecutive dots), then a domain of
# letter/digit labels with a 2-63 letter top-level label.
_ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-"
_DOMAIN = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}"
EMAIL_PATTERN = "^[" + _ATEXT + r"]+(?:\.[" + _ATEXT + "]+)*@" + _DOMAIN + "$"

# Addresses written inside text (kit/masking.py masks them in free-form values): every
# address the rule above admits, and the near misses a person still reads as one (dots
# anywhere in the local part, letters and digits of any script, as in an internationalised
# address, a local part past 64 characters). A match starts only where a run of local-part
# characters starts (the look-behind), so the runs are scanned once each and a search is
# linear in the text; the domain's repetitions are bounded (labels of 63, at most 127).
_LOCAL_IN_TEXT = r"[\w.!#$%&'*+/=?^`{|}~-]"
EMAIL_IN_TEXT_PATTERN = (
    f"(?<!{_LOCAL_IN_TEXT}){_LOCAL_IN_TEXT}+"
    + r"@(?:[^\W_](?:[\w-]{0,61}[^\W_])?\.){1,127}[^\W\d_]{2,63}"
)

MAX_LENGTH = 254
MAX_LOCAL_LENGTH = 64  # RFC 5321 4.5.3.1.1, which `format: email` checkers hold to
# fullmatch, not match: `$` also matches before a trailing "\n", which would let
# "a@example.com\n" through as an address.
_EMAIL = re.compile(EMAIL_PATTERN)


def is_email(value: str) -> bool:
    return (
        len(value) <= MAX_LENGTH
        and _EMAIL.fullmatch(value) is not None
        and len(value.rpartition("@")[0]) <= MAX_LOCAL_LENGTH
    )


def canonical_email(value: str | None) -> str | None:
    """The lower-cased bare address, the form suppressions are stored and compared in;
    None when the text is not one address."""
    if value is None or not is_email(value):
        return None
    return value.lower()


# What may not appear in a value that becomes a mail header: line breaks of any kind (CR,
# LF and the other characters str.splitlines breaks on) and the other control characters
# (NUL, ...). A tab is ordinary header whitespace and stays allowed.
HEADER_UNSAFE_PATTERN = r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]"
_HEADER_UNSAFE = re.compile(HEADER_UNSAFE_PATTERN)
# The same rule as a whole-value pattern, for the OpenAPI document (valid in ECMA-262 and
# Python `re`): a text holding none of those characters.
HEADER_SAFE_PATTERN = "^[^" + HEADER_UNSAFE_PATTERN[1:-1] + "]*$"


def header_safe(value: str) -> bool:
    """Whether the text can be one header value: no line breaks, no control characters."""
    return _HEADER_UNSAFE.search(value) is None
