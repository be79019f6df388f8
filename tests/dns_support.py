"""DNS for tests: no test may ask the machine's resolver (it is not on loopback).

`StubResolver` is every test Runtime's resolver (tests/conftest.py): it knows a few
names, answers `.invalid` names as not existing (RFC 6761), and fails the test for any
other name. A test adds names, or a coroutine that decides the answer (a slow or
rebinding DNS), through `names`.

`guard_system_resolver` is the backstop for code that skips the Runtime: the process's
socket.getaddrinfo (which asyncio and anyio use too) passes address literals and
"localhost" through and refuses every other name.
"""

import ipaddress
import socket
from collections.abc import Awaitable, Callable

from homebase.kit.dns import Address

PUBLIC_ADDRESS = "93.184.215.14"  # a global address: passes the policy, never connected to
DEFAULT_NAMES: dict[str, list[str]] = {
    "localhost": ["127.0.0.1", "::1"],
    "public.test": [PUBLIC_ADDRESS],
}
Answer = list[str] | Callable[[str, int], Awaitable[list[Address]]]


class UnknownTestHost(AssertionError):
    """A test resolved a name nobody told the stub about."""


class StubResolver:
    def __init__(self, names: dict[str, Answer] | None = None):
        self.names: dict[str, Answer] = {**DEFAULT_NAMES, **(names or {})}
        self.asked: list[str] = []

    async def __call__(self, host: str, port: int) -> list[Address]:
        self.asked.append(host)
        if host.endswith(".invalid"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        answer = self.names.get(host)
        if answer is None:
            raise UnknownTestHost(
                f"test resolved {host!r}: add it to the StubResolver "
                "(tests never ask the machine's resolver)"
            )
        if callable(answer):
            return await answer(host, port)
        return [ipaddress.ip_address(address) for address in answer]


def _is_loopback_or_literal(host) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    return True


def guard_system_resolver() -> Callable[[], None]:
    """Install the guard; returns the function that removes it."""
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if not _is_loopback_or_literal(host):
            raise UnknownTestHost(
                f"a test asked the machine's resolver for {host!r}; inject "
                "a StubResolver (runtime.resolver) instead"
            )
        return real(host, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo

    def remove() -> None:
        socket.getaddrinfo = real

    return remove
