"""Host name resolution as an injectable function.

Whoever resolves a name takes a `Resolver` from the Runtime (`runtime.resolver`) instead
of calling getaddrinfo: production uses `system_resolver`, tests a stub that never asks
the machine's resolver (tests/dns_support.py).

`system_resolver` runs getaddrinfo on threads of its own, not the event loop's default
executor: a caller stops waiting at its own time limit, but the thread runs on until the
system resolver gives up (resolv.conf's timeout times its attempts), so a slow DNS server
could otherwise tie up the threads that password hashing, SMTP sends and the SQLite
checkpoint share. Here slow lookups can only delay other lookups.
"""

import asyncio
import functools
import ipaddress
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

LOOKUP_THREADS = 4
_executor = ThreadPoolExecutor(max_workers=LOOKUP_THREADS, thread_name_prefix="homebase-dns")


class Resolver(Protocol):
    async def __call__(self, host: str, port: int) -> list[Address]:
        """Every address of `host` (a name, never an address literal), without
        duplicates; OSError (socket.gaierror) when the name does not resolve."""
        ...


async def system_resolver(host: str, port: int) -> list[Address]:
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.run_in_executor(
            _executor, functools.partial(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
        )
    except (UnicodeError, ValueError) as error:
        # A name the OS call can't even encode ("a..b", a NUL) is one that does not
        # resolve, not a crash.
        raise socket.gaierror(socket.EAI_NONAME, f"not a valid host name ({error})") from error
    # Scope ids ("fe80::1%eth0") are dropped: the address itself decides.
    return list(
        dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos)
    )


LOOPBACK_NAMES: dict[str, list[Address]] = {
    "localhost": [ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")]
}


async def loopback_only_resolver(host: str, port: int) -> list[Address]:
    """A testing hook (HOMEBASE_TESTING_LOOPBACK_RESOLVER, refused in production): answers
    `localhost` and treats every other name as not existing, without asking the machine's
    resolver. A served process under a fuzzer (tests/kit/test_schemathesis.py) resolves
    generated webhook host names through this, so they become a clean 400."""
    addresses = LOOPBACK_NAMES.get(host.lower().rstrip("."))
    if addresses is None:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return list(addresses)
