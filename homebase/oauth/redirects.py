"""Redirect URIs: which may be registered, and when a requested one matches.

RFC 9700 2.1: exact string matching, except that loopback redirect URIs (the IP
literals 127.0.0.1 and [::1], RFC 8252 7.3) match on any port, since a native app
listens on whatever port the system gives it. Everything else (scheme, host, port,
path, query) must be identical.
"""

from urllib.parse import SplitResult, urlsplit

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1"})
MAX_LENGTH = 2000


class InvalidRedirectUri(ValueError):
    pass


def _parts(uri: str) -> tuple[SplitResult, int | None]:
    try:
        parts = urlsplit(uri)
        port = parts.port  # raises on a malformed port
    except ValueError as error:
        raise InvalidRedirectUri("is not a valid URI") from error
    return parts, port


def is_loopback(uri: str) -> bool:
    try:
        parts, _ = _parts(uri)
    except InvalidRedirectUri:
        return False
    return parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS


def validate_for_registration(uri: str) -> str:
    """https anywhere; http only on loopback (127.0.0.1, [::1], localhost); no fragment,
    no wildcard, no user info. The refusal says why, never the URI (an error repeats no
    submitted value; the caller names which URI by its position)."""
    uri = uri.strip()
    if not uri or len(uri) > MAX_LENGTH:
        raise InvalidRedirectUri(f"must be 1 to {MAX_LENGTH} characters")
    parts, _ = _parts(uri)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise InvalidRedirectUri("must be an absolute http(s) URI")
    if parts.scheme == "http" and parts.hostname not in LOOPBACK_HOSTS | {"localhost"}:
        raise InvalidRedirectUri("may use plain http only on loopback")
    if parts.fragment or "#" in uri:
        raise InvalidRedirectUri("must not contain a fragment")
    if "@" in parts.netloc or "*" in uri:
        raise InvalidRedirectUri("must not contain user info or wildcards")
    return uri


def matches(registered: str, requested: str) -> bool:
    if registered == requested:
        return True
    if not (is_loopback(registered) and is_loopback(requested)):
        return False
    a, _ = _parts(registered)
    b, _ = _parts(requested)
    return (a.scheme, a.hostname, a.path, a.query, a.fragment) == (
        b.scheme,
        b.hostname,
        b.path,
        b.query,
        b.fragment,
    ) and "@" not in b.netloc


def find_registered(registered: list[str], requested: str | None) -> str | None:
    """The requested URI when it matches a registered one, else None."""
    if not requested or len(requested) > MAX_LENGTH:
        return None
    return requested if any(matches(uri, requested) for uri in registered) else None
