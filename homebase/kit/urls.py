"""Web page addresses the service stores and hands on to people (a persona's links, a
listing's page): absolute http(s) URLs, one token, that a phone shows as one link.

A reply to a lead may carry these as they are, so what reaches the lead must read as it
was written: no white space (a text would show two pieces), no control or format
character (a bidirectional override can make a link read as another address), no user
name or password (`https://bank.example@evil.example/` points elsewhere than it reads)."""

import unicodedata
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, StringConstraints

MAX_LENGTH = 2048
SCHEMES = ("http", "https")


def web_url_problem(value: str) -> str | None:
    """Why `value` is not an acceptable page address, or None."""
    if not value or len(value) > MAX_LENGTH:
        return f"must be 1 to {MAX_LENGTH} characters"
    if any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") for ch in value):
        return "must not contain white space or control characters"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 -- raises ValueError on a malformed port
    except ValueError:  # its text quotes the port: an error repeats no submitted value
        return "is not a valid URL (a malformed port or IPv6 address)"
    if parts.scheme not in SCHEMES:  # urlsplit lower-cases it
        return "must be an absolute http or https URL (https://...)"
    if not parts.hostname:
        return "must name a host"
    if parts.username is not None or parts.password is not None:
        return "must not carry a user name or password"
    return None


def _checked(value: str) -> str:
    problem = web_url_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


WebUrl = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_LENGTH), AfterValidator(_checked)
]
