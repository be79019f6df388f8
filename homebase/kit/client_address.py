"""The client's address: the peer, or what trusted proxies say the peer was.

`X-Forwarded-For` is believed only from a peer listed in HOMEBASE_TRUSTED_PROXIES, and
then only as far as the chain stays trusted: walking the entries right to left (each
proxy appends the address it saw), the first one that is not itself a trusted proxy is
the client. Everything left of it was written by that client and proves nothing. An
entry that is not an address stops the walk: the last trusted hop (the peer, when it is
the rightmost entry) is charged, rather than a value nobody vouches for.

Uvicorn's own proxy-header handling is off (`homebase serve`), so this one setting
decides.
"""

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def parse_networks(text: str) -> tuple[Network, ...]:
    """`10.0.0.1, 10.1.0.0/16, fd00::/8` -> networks. A bad entry is a ValueError naming
    it (an address with host bits set, `10.0.0.1/8`, counts as bad: it is a typo)."""
    networks = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=True))
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or CIDR range") from None
    return tuple(networks)


def parse_address(text: str) -> Address | None:
    """An address as proxies write it: bare, `[v6]`, `[v6]:port` or `v4:port`; an
    IPv4-mapped IPv6 address is its IPv4 address. None when it is not one."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # v4:port (an IPv6 address has at least two colons)
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@lru_cache(maxsize=4096)
def _peer(peer: str) -> Address | None:
    """parse_address for the socket's peer, remembered: a client's connection sends
    many requests, and the parse was most of an unproxied request's address work. (The
    peer is the socket's address as the server writes it, short; X-Forwarded-For's
    entries, which a client writes at any length, are not cached.)"""
    return parse_address(peer)


def _trusted(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address in network for network in networks)


def client_address(
    peer: str | None, forwarded_for: Iterable[str], trusted: tuple[Network, ...]
) -> str:
    """The client's address as text (for the per-address limit and logs). `forwarded_for`
    is every X-Forwarded-For header value in the order received."""
    peer_address = _peer(peer) if peer else None
    if peer_address is None:
        return peer or "unknown"  # not an IP socket (a test client, a Unix socket)
    if not trusted or not _trusted(peer_address, trusted):
        return str(peer_address)
    entries = [entry for value in forwarded_for for entry in value.split(",")]
    nearest = peer_address
    for entry in reversed(entries):
        address = parse_address(entry)
        if address is None:
            break
        if not _trusted(address, trusted):
            return str(address)
        nearest = address
    return str(nearest)


def budget_key(address: str) -> str:
    """The bucket an address is counted in: itself, or its /64 for IPv6 (one subscriber
    usually holds a whole /64, and would otherwise have 2^64 budgets)."""
    parsed = parse_address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return address
