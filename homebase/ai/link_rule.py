"""Which links and addresses an AI text may carry (docs/ai.md, "What may go out").

A text may carry a link only when it is one of the allowed links (the persona's `links`,
the workspace's listing `url`s), and no email address at all. Both checks read the text
as a phone shows and a browser follows it, and refuse whatever they cannot read:

- The text is NFKC-normalised (full-width letters and dots are the ASCII ones) and cut
  into whitespace-separated tokens; each token's %-escapes are decoded (until none is
  left, at most a few rounds) and a backslash is a slash, as browsers read it.
- **Email**: a local part, `@`, a domain with a dot, and nothing after it that makes it a
  path (`/`, `?`, `#`, a port). `tiktok.com/@x` is a link, not an address.
- **Link-like**: a token holding `://`, a script scheme (`javascript:`, `data:`, ...),
  or a host: two or more dot-separated labels, the last alphabetic and at least two
  letters long (`example.com`, `www.x.example`, `bücher.example`), or a dotted IPv4
  address. Dots of other scripts (`。`) count, as browsers read them.
- **Allowed**: the link parses (an optional `http`/`https` scheme, equal to the allowed
  link's when both have one; no user name; the same port), its host is exactly the
  allowed link's in IDNA ASCII form (UTS 46, non-transitional, as browsers encode it; a
  host that does not encode is refused), its path is the allowed link's path or, when
  that ends with `/`, below it (no `.` or `..` segment), and its query and fragment are
  empty or the allowed link's own.
"""

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import idna

EMAIL = "email"
LINK = "link"

_DOTS = str.maketrans({"\u3002": "."})  # NFKC leaves the ideographic full stop; IDNA maps it
_TOKEN = re.compile(r"[^\s<>\"'`]+")
_LEADING = "([{<*_\u00ab\u201c\u2018"
_TRAILING = ".,;:!?)]}>*_\u00bb\u201d\u2019\u2026"
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_SCHEME_BEFORE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*$")
_SCRIPT_SCHEME = re.compile(r"(?i)(?:^|[^A-Za-z0-9+.-])(?:javascript|vbscript|data|file|blob):.")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_DECODE_ROUNDS = 4
# An address: a local part (no "/": the `@` of `tiktok.com/@x` ends a path, not a
# mailbox), `@`, a domain whose last label is 2 to 63 letters, and nothing after it that
# continues a host or starts a path, query, fragment or port.
_LOCAL = r"[\w.!#$%&'*+=?^`{|}~-]"
_EMAIL = re.compile(
    rf"(?<!{_LOCAL}){_LOCAL}+@(?:[^\W_](?:[\w-]{{0,61}}[^\W_])?\.){{1,127}}[^\W\d_]{{2,63}}"
    r"(?![\w@/?#-]|\.[^\W_]|:\d)"
)
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")


@dataclass(frozen=True)
class Link:
    """A link as the rule compares it: host in IDNA ASCII, path, query and fragment
    %-decoded, the port only when it is not the scheme's default."""

    scheme: str | None
    host: str
    port: int | None
    path: str  # "" when the link has none
    query: str
    fragment: str


def readable(text: str) -> str:
    """The text as both checks read it: NFKC, and the ideographic full stop as a dot."""
    return unicodedata.normalize("NFKC", text).translate(_DOTS)


def decoded(token: str) -> str:
    for _ in range(_DECODE_ROUNDS):
        plain = unquote(token)
        if plain == token:
            break
        token = plain
    return token.replace("\\", "/")


def _without_format(text: str) -> str:
    """Zero-width and other format characters (category Cf) removed: invisible on a phone."""
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


def _host_char(char: str) -> bool:
    return char.isalnum() or char in "-_." or unicodedata.category(char) == "Cf"


def _host_runs(token: str) -> Iterator[tuple[int, str]]:
    start = None
    for index, char in enumerate(token + " "):
        if _host_char(char) and index < len(token):
            if start is None:
                start = index
        elif start is not None:
            yield start, token[start:index]
            start = None


def _is_host(run: str) -> bool:
    labels = _without_format(run).strip(".").split(".")
    if len(labels) < 2 or not all(labels):
        return False
    if _IPV4.fullmatch(".".join(labels)):
        return True
    last = labels[-1]
    return len(last) >= 2 and (last.isalpha() or last.lower().startswith("xn--"))


def candidate(token: str) -> tuple[str, str] | None:
    """(what precedes it, the link) of a decoded token: the link runs from its scheme,
    user name or host to the token's end, trailing punctuation left out; None when the
    token holds nothing link-like."""
    token = token.rstrip(_TRAILING)
    stripped = token.lstrip(_LEADING)
    if not stripped:
        return None
    offset = len(token) - len(stripped)
    marker = stripped.find("://")
    if marker >= 0:
        scheme = _SCHEME_BEFORE.search(stripped[:marker])
        start = scheme.start() if scheme else marker
    elif _SCRIPT_SCHEME.search(stripped):
        start = 0
    else:
        hosts = (start for start, run in _host_runs(stripped) if _is_host(run))
        found = next(hosts, None)
        if found is None:
            return None
        # A user name before the host (`x@evil.example`) stays part of the link.
        start = 0 if "@" in stripped[:found] else found
    return token[: offset + start], stripped[start:]


def ascii_host(host: str) -> str | None:
    host = host[:-1] if host.endswith(".") else host
    try:
        return idna.encode(host, uts46=True, transitional=False).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def parse(text: str) -> Link | None:
    """The link `text` names, or None when it is none the rule can allow (another scheme,
    a user name, a host that does not encode, an unreadable port)."""
    scheme = None
    rest = text
    head, marker, tail = text.partition("://")
    if marker:
        if not _SCHEME.fullmatch(head) or head.lower() not in _DEFAULT_PORTS:
            return None
        scheme, rest = head.lower(), tail
    elif _SCRIPT_SCHEME.search(text):
        return None
    try:
        parts = urlsplit("//" + rest.replace("\\", "/"))
        port = parts.port
    except ValueError:
        return None
    if "@" in parts.netloc or not parts.hostname:
        return None
    host = ascii_host(parts.hostname)
    if host is None:
        return None
    if port is not None and scheme is not None and port == _DEFAULT_PORTS[scheme]:
        port = None
    return Link(scheme, host, port, parts.path, parts.query, parts.fragment)


def allowed_links(links: Iterable[str]) -> tuple[Link, ...]:
    parsed = (parse(decoded(readable(link).strip())) for link in links if link and link.strip())
    return tuple(link for link in parsed if link is not None)


def _path_allowed(path: str, allowed: str) -> bool:
    segments = path.split("/")
    if "." in segments or ".." in segments:
        return False
    if allowed.endswith("/"):
        return path.startswith(allowed) or path == allowed[:-1]
    return path.rstrip("/") == allowed.rstrip("/")


def matches(link: Link, allowed: Link) -> bool:
    return (
        link.host == allowed.host
        and (link.scheme is None or allowed.scheme is None or link.scheme == allowed.scheme)
        and link.port == allowed.port
        and _path_allowed(link.path, allowed.path)
        and link.query in ("", allowed.query)
        and link.fragment in ("", allowed.fragment)
    )


def check(text: str, allowed: tuple[Link, ...]) -> tuple[str | None, str]:
    """(the rule `text` breaks: EMAIL, LINK or None; the readable text with every link,
    all allowed by then, replaced by `#`). The second is what the phone rule reads, so the
    digits of an allowed link are no number, and whatever precedes a link is still read."""
    readable_text = readable(text)
    pieces: list[str] = []
    end = 0
    for match in _TOKEN.finditer(readable_text):
        token = decoded(match.group())
        if _EMAIL.search(_without_format(token)):
            return EMAIL, readable_text
        found = candidate(token)
        if found is None:
            continue
        before, text_link = found
        link = parse(text_link)
        if link is None or not any(matches(link, each) for each in allowed):
            return LINK, readable_text
        # What precedes the link stays for the phone rule (`4155550199/leerealty...`).
        pieces += (readable_text[end : match.start()], before, "#")
        end = match.end()
    return None, "".join(pieces) + readable_text[end:]
