"""The rules a new member password must meet, wherever it is set (create-user, set-password,
load-fixtures, the console's password page). Sign-in never applies them: a password set
before a rule existed keeps working until its member changes it.

- at least MIN_LENGTH characters;
- not the member's own email (compared trimmed and case-insensitively);
- not one of the well-known passwords in common_passwords.txt, shipped with the service
  (compared case-insensitively, after trimming).
"""

import functools
from importlib.resources import files

MIN_LENGTH = 12
TOO_SHORT = f"must be at least {MIN_LENGTH} characters"
IS_EMAIL = "must not be the email address"
TOO_COMMON = "is one of the most common passwords; choose another"


@functools.cache
def common_passwords() -> frozenset[str]:
    """The shipped list, lower-cased; read once per process."""
    text = (files("homebase.kit") / "common_passwords.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip().casefold()
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )


def refusal(password: str, email: str) -> str | None:
    """Why `password` may not be set for `email` (the rule it breaks), or None."""
    if len(password) < MIN_LENGTH:
        return TOO_SHORT
    folded = password.strip().casefold()
    if folded == email.strip().casefold():
        return IS_EMAIL
    if folded in common_passwords():
        return TOO_COMMON
    return None
