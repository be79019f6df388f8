"""Where webhooks may be sent: never into our own network unless allowed.

A subscription URL is checked when it is created (syntax, scheme, and every address
its host resolves to) and again on every attempt: the connection is made through
`GuardedBackend`, which resolves the host itself, refuses if any address is internal,
and connects to the address it checked, so a DNS answer that changes between the check
and the connection (DNS rebinding) can't slip through.

Both checks resolve through the Runtime's resolver (kit/dns.py), bounded by
HOMEBASE_WEBHOOK_DNS_TIMEOUT_SECONDS (`bounded_lookup`). At creation the lookup is made
before the request's transaction opens (`PreResolved`, fetched by the route's
before-transaction step), so a slow DNS server holds no database connection: on SQLite
the process has one, and every workspace's requests would wait behind it.
"""

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import httpcore

from homebase.config import Settings
from homebase.kit.dns import Resolver

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Cloud metadata services that is_global alone would not name (some are global space).
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(address)
    for address in (
        "169.254.169.254",
        "169.254.170.2",
        "100.100.100.200",
        "fd00:ec2::254",
        "192.0.0.192",
    )
)
METADATA_HOSTS = frozenset({"metadata.google.internal", "metadata", "instance-data"})


class UnsafeUrl(ValueError):
    """The URL is refused; the text says why and is shown to the client."""


NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """IPv4 addresses an IPv6 address carries and may be routed to: 6to4 (2002::/16),
    Teredo and NAT64 (64:ff9b::/96) translate to them somewhere on the path."""
    embedded = [address.sixtofour] if address.sixtofour is not None else []
    if address.teredo is not None:
        embedded += list(address.teredo)
    if address in NAT64:
        embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return embedded


def address_refusal(address: IPAddress, *, allow_private: bool) -> str | None:
    """Why this address may not receive webhooks ("is a loopback address"), or None when
    it may. Neither the address nor the host is named: the reason ends up in a 400 or an
    attempt's error, which repeat nothing the client sent."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        else:
            for inner in _embedded_ipv4(address):
                reason = address_refusal(inner, allow_private=allow_private)
                if reason:
                    return f"embeds an IPv4 address that {reason}"
    if address in METADATA_ADDRESSES:
        return "is a cloud metadata address"
    if address.is_multicast or address.is_unspecified:
        return "is not a unicast address"
    if allow_private:
        return None
    if address.is_loopback:
        return "is a loopback address"
    if address.is_link_local:
        return "is a link-local address"
    if (
        address.is_private
        or address.is_reserved
        or not address.is_global
        or getattr(address, "is_site_local", False)
    ):  # fec0::/10, deprecated, not global
        return "is a private or internal address"
    return None


def check_url_syntax(url: str, settings: Settings) -> tuple[str, int]:
    """(host, port) of an acceptable URL, or UnsafeUrl."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise UnsafeUrl("is not a valid URL (a malformed port or IPv6 address)") from error
    allowed = ("https",) if settings.env == "production" else ("https", "http")
    if parts.scheme not in allowed:
        raise UnsafeUrl(
            "must use https" if settings.env == "production" else "must be an http or https URL"
        )
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise UnsafeUrl("must name a host")
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl("must not carry a user name or password")
    if parts.fragment:
        raise UnsafeUrl("must not have a fragment")
    if host in METADATA_HOSTS or host.endswith(".internal"):
        raise UnsafeUrl("names a metadata or internal host")
    return host, port or (443 if parts.scheme == "https" else 80)


# (host, port) -> every address, or UnsafeUrl saying why not.
Lookup = Callable[[str, int], Awaitable[list[IPAddress]]]


def bounded_lookup(resolver: Resolver, seconds: float) -> Lookup:
    """`resolver` as a Lookup: address literals answer themselves, a name that does not
    resolve or takes longer than `seconds` is refused."""

    async def lookup(host: str, port: int) -> list[IPAddress]:
        try:
            return [ipaddress.ip_address(host)]
        except ValueError:
            pass
        try:
            async with asyncio.timeout(seconds):
                addresses = await resolver(host, port)
        except TimeoutError as error:  # before OSError: TimeoutError is one
            raise UnsafeUrl(
                f"its host did not resolve within {seconds:g} s; try again, or check the host's DNS"
            ) from error
        except OSError as error:
            raise UnsafeUrl(
                f"its host does not resolve ({error.strerror or type(error).__name__})"
            ) from error
        if not addresses:
            raise UnsafeUrl("its host does not resolve")
        return addresses

    return lookup


class PreResolved:
    """A Lookup that answers only from lookups made earlier (`fetch`), outside the
    request's transaction; asked for a host it did not fetch, it fails loudly rather than
    resolve inside the transaction."""

    def __init__(self) -> None:
        self._answers: dict[tuple[str, int], list[IPAddress] | UnsafeUrl] = {}

    async def fetch(self, url: str, settings: Settings, lookup: Lookup) -> None:
        try:
            host, port = check_url_syntax(url, settings)
        except UnsafeUrl:
            return  # the check proper refuses it again, without needing an answer
        try:
            self._answers[host, port] = await lookup(host, port)
        except UnsafeUrl as refused:
            self._answers[host, port] = refused

    async def __call__(self, host: str, port: int) -> list[IPAddress]:
        answer = self._answers.get((host, port))
        if answer is None:
            raise RuntimeError(f"{host}:{port} was not looked up before the transaction")
        if isinstance(answer, UnsafeUrl):
            raise answer
        return answer


async def look_up_url(url: str, settings: Settings, resolver: Resolver) -> PreResolved:
    """The lookup a later `check_url(url, settings, answers)` needs, made now."""
    answers = PreResolved()
    await answers.fetch(
        url, settings, bounded_lookup(resolver, settings.webhook_dns_timeout_seconds)
    )
    return answers


async def checked_addresses(
    host: str, port: int, *, allow_private: bool, lookup: Lookup
) -> list[IPAddress]:
    """Every address of host, or UnsafeUrl when any of them is refused."""
    addresses = await lookup(host, port)
    for address in addresses:
        reason = address_refusal(address, allow_private=allow_private)
        if reason:
            raise UnsafeUrl(f"its host resolves to an address that {reason}")
    return addresses


async def check_url(url: str, settings: Settings, lookup: Lookup) -> None:
    host, port = check_url_syntax(url, settings)
    await checked_addresses(
        host, port, allow_private=settings.webhook_allow_private_urls, lookup=lookup
    )


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to addresses that pass the policy.

    TLS still verifies the certificate against the URL's host name: httpcore passes the
    original host as server_hostname when it starts TLS on the stream we return."""

    def __init__(self, *, allow_private: bool, lookup: Lookup):
        self._inner = httpcore.AnyIOBackend()
        self._allow_private = allow_private
        self._lookup = lookup

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's)
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await checked_addresses(
            host, port, allow_private=self._allow_private, lookup=self._lookup
        )
        return await self._inner.connect_tcp(
            str(addresses[0]),
            port,
            timeout=timeout,
            local_address=local_address,
            socket_options=socket_options,
        )

    async def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        raise UnsafeUrl("unix sockets are never webhook receivers")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
