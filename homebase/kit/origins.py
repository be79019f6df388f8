"""Web origins (RFC 6454) as an operator writes them: `https://app.example.com`,
`http://127.0.0.1:5173`. Each is kept in the form a browser's `Origin` header carries
(scheme and host in lower case, no default port), so a request's origin is matched by
plain string equality."""

import ipaddress
import re
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
HOST_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")


def parse_origins(text: str) -> tuple[str, ...]:
    """The origins of a comma-separated list, each once; ValueError naming the first entry
    that is not a `scheme://host[:port]` origin."""
    origins = [canonical_origin(item.strip()) for item in text.split(",") if item.strip()]
    return tuple(dict.fromkeys(origins))


def canonical_origin(text: str) -> str:
    problem = _problem(text)
    if problem is not None:
        raise ValueError(f"{text!r} is not an origin: {problem}")
    parts = urlsplit(text)
    scheme, host, port = parts.scheme.lower(), parts.hostname or "", parts.port
    if ":" in host:  # an IPv6 literal, compressed as browsers write it, in its brackets
        host = f"[{ipaddress.IPv6Address(host).compressed}]"
    return (
        f"{scheme}://{host}"
        if port in (None, DEFAULT_PORTS[scheme])
        else f"{scheme}://{host}:{port}"
    )


def _problem(text: str) -> str | None:
    if "*" in text:
        return "wildcards are not accepted; name each origin"
    if not text.isascii():
        return "write the host in its ASCII (punycode) form, as browsers send it"
    try:  # urlsplit checks a bracketed IPv6 literal, and the port when it is read
        parts = urlsplit(text)
        parts.port  # noqa: B018
    except ValueError:
        if "[" in text:
            return "the brackets hold no IPv6 address"
        return "the port must be a number from 0 to 65535"
    if parts.scheme.lower() not in DEFAULT_PORTS or not text.lower().startswith(
        f"{parts.scheme.lower()}://"
    ):
        return "it must start with http:// or https://"
    if parts.path or parts.query or parts.fragment or text.endswith(("?", "#")):
        return "an origin has no path, query or fragment (not even a trailing /)"
    if "@" in parts.netloc:
        return "an origin has no user name or password"
    host = parts.hostname or ""
    if not host:
        return "it names no host"
    if parts.netloc.startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return "the brackets hold no IPv6 address"
    elif not HOST_NAME.match(host):
        return "the host is not a valid host name or address"
    return None
