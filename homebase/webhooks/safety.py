"""Where webhooks may be sent: never into our own network unless allowed.

A subscription URL is checked when it is created (syntax, scheme, and every address
its host resolves to) and again on every attempt: the connection is made through
`GuardedBackend`, which resolves the host itself, refuses if any address is internal,
and connects to the address it checked, so a DNS answer that changes between the check
and the connection (DNS rebinding) can't slip through. Resolution uses the event
loop's getaddrinfo (a thread), never blocking the loop.
"""

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

import httpcore

from homebase.config import Settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Cloud metadata services that is_global alone would not name (some are global space).
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(address) for address in (
    "169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254", "192.0.0.192"))
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
    """Why this address may not receive webhooks, or None when it may."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        else:
            for inner in _embedded_ipv4(address):
                reason = address_refusal(inner, allow_private=allow_private)
                if reason:
                    return f"{address} embeds {reason}"
    if address in METADATA_ADDRESSES:
        return f"{address} is a cloud metadata address"
    if address.is_multicast or address.is_unspecified:
        return f"{address} is not a unicast address"
    if allow_private:
        return None
    if address.is_loopback:
        return f"{address} is a loopback address"
    if address.is_link_local:
        return f"{address} is a link-local address"
    if (address.is_private or address.is_reserved or not address.is_global
            or getattr(address, "is_site_local", False)):  # fec0::/10, deprecated, not global
        return f"{address} is a private or internal address"
    return None


def check_url_syntax(url: str, settings: Settings) -> tuple[str, int]:
    """(host, port) of an acceptable URL, or UnsafeUrl."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise UnsafeUrl(f"is not a valid URL ({error})") from error
    allowed = ("https",) if settings.env == "production" else ("https", "http")
    if parts.scheme not in allowed:
        raise UnsafeUrl("must use https" if settings.env == "production"
                        else "must be an http or https URL")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise UnsafeUrl("must name a host")
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl("must not carry a user name or password")
    if parts.fragment:
        raise UnsafeUrl("must not have a fragment")
    if host in METADATA_HOSTS or host.endswith(".internal"):
        raise UnsafeUrl(f"{host} is a metadata or internal host name")
    return host, port or (443 if parts.scheme == "https" else 80)


async def resolve(host: str, port: int) -> list[IPAddress]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UnsafeUrl(f"{host} does not resolve ({error.strerror})") from error
    # Scope ids ("fe80::1%eth0") are dropped: the address itself decides.
    return list(dict.fromkeys(ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos))


async def checked_addresses(host: str, port: int, *, allow_private: bool) -> list[IPAddress]:
    """Every address of host, or UnsafeUrl when any of them is refused."""
    addresses = await resolve(host, port)
    if not addresses:
        raise UnsafeUrl(f"{host} does not resolve")
    for address in addresses:
        reason = address_refusal(address, allow_private=allow_private)
        if reason:
            raise UnsafeUrl(f"{host} resolves to {reason}")
    return addresses


async def check_url(url: str, settings: Settings) -> None:
    host, port = check_url_syntax(url, settings)
    await checked_addresses(host, port, allow_private=settings.webhook_allow_private_urls)


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to addresses that pass the policy.

    TLS still verifies the certificate against the URL's host name: httpcore passes the
    original host as server_hostname when it starts TLS on the stream we return."""

    def __init__(self, *, allow_private: bool):
        self._inner = httpcore.AnyIOBackend()
        self._allow_private = allow_private

    async def connect_tcp(self, host, port, timeout=None,  # noqa: ASYNC109 (httpcore's)
                          local_address=None, socket_options=None):
        addresses = await checked_addresses(host, port, allow_private=self._allow_private)
        return await self._inner.connect_tcp(str(addresses[0]), port, timeout=timeout,
                                             local_address=local_address,
                                             socket_options=socket_options)

    async def connect_unix_socket(self, *args, **kwargs):
        raise UnsafeUrl("unix sockets are never webhook receivers")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
