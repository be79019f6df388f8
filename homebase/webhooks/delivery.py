"""One attempt: POST the body, judge the answer.

Success is any 2xx. A redirect is a failure (never followed: it could lead inside our
network); so are any other status, a connection error and no complete answer within
HOMEBASE_WEBHOOK_TIMEOUT_SECONDS. At most HOMEBASE_WEBHOOK_MAX_RESPONSE_BYTES of the
reply are read, so a receiver can't make us buffer an endless body.
"""

import asyncio
import time
import weakref
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpcore
import httpx

from homebase import __version__, tracing
from homebase.config import Settings
from homebase.kit.dns import Resolver
from homebase.webhooks import retry_after
from homebase.webhooks.safety import GuardedBackend, UnsafeUrl, bounded_lookup

USER_AGENT = f"Homebase-Webhooks/{__version__}"
ERROR_LIMIT = 500  # characters of an error kept in the delivery log


@dataclass(frozen=True)
class AttemptResult:
    succeeded: bool
    status_code: int | None
    latency_ms: int
    error: str | None
    # A 429 or 503's Retry-After header as sent, for the next attempt's time (retry_after.py)
    retry_after: str | None = None


# httpcore's errors as httpx's, the most specific first (what httpx's own transport does).
_ERRORS: tuple[tuple[type[Exception], type[httpx.HTTPError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)


@contextmanager
def _as_httpx_errors() -> Iterator[None]:
    try:
        yield
    except Exception as error:
        for theirs, ours in _ERRORS:
            if isinstance(error, theirs):
                raise ours(str(error)) from error
        raise


class _ResponseStream(httpx.AsyncByteStream):
    def __init__(self, stream: AsyncIterable[bytes]):
        self.stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _as_httpx_errors():
            async for part in self.stream:
                yield part

    async def aclose(self) -> None:
        close = getattr(self.stream, "aclose", None)
        if close is not None:
            with _as_httpx_errors():
                await close()


class GuardedTransport(httpx.AsyncBaseTransport):
    """An httpx transport over an httpcore connection pool on GuardedBackend. httpx's
    own transport takes no network backend, so this one is written on the public APIs of
    both (httpx's custom transports, httpcore's pool), as httpx's own is."""

    def __init__(
        self, *, allow_private: bool, max_connections: int, resolver: Resolver, dns_timeout: float
    ):
        self.pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=5.0,
            retries=0,
            network_backend=GuardedBackend(
                allow_private=allow_private, lookup=bounded_lookup(resolver, dns_timeout)
            ),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _as_httpx_errors():
            response = await self.pool.handle_async_request(core_request)
        stream = response.stream
        if not isinstance(stream, AsyncIterable):  # never: an async pool's responses are async
            raise TypeError(f"httpcore answered with a {type(stream).__name__} stream")
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(stream),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self.pool.aclose()


# One client per event loop, policy and resolver: connections are reused across attempts
# (and bound to the loop that opened them).
_Clients = dict[tuple[bool, int, Resolver, float], httpx.AsyncClient]
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Clients] = (
    weakref.WeakKeyDictionary()
)


def client_for(settings: Settings, resolver: Resolver) -> httpx.AsyncClient:
    loop = asyncio.get_running_loop()
    per_loop = _clients.setdefault(loop, {})
    key = (
        settings.webhook_allow_private_urls,
        settings.webhook_delivery_batch,
        resolver,
        settings.webhook_dns_timeout_seconds,
    )
    client = per_loop.get(key)
    if client is None or client.is_closed:
        transport = GuardedTransport(
            allow_private=settings.webhook_allow_private_urls,
            max_connections=max(10, settings.webhook_delivery_batch),
            resolver=resolver,
            dns_timeout=settings.webhook_dns_timeout_seconds,
        )
        client = httpx.AsyncClient(
            transport=transport,
            follow_redirects=False,
            trust_env=False,
            headers={"User-Agent": USER_AGENT},
        )
        tracing.instrument_client(client)  # its own transport: not under the global patch
        per_loop[key] = client
    return client


async def _read_capped(response: httpx.Response, cap: int) -> None:
    read = 0
    async for chunk in response.aiter_raw():
        read += len(chunk)
        if read >= cap:
            break


async def _post(
    client: httpx.AsyncClient, url: str, body: bytes, headers: dict[str, str], settings: Settings
) -> tuple[int, str | None, str | None]:
    request = client.build_request(
        "POST", url, content=body, headers=headers, timeout=settings.webhook_timeout_seconds
    )
    response = await client.send(request, stream=True)
    try:
        await _read_capped(response, settings.webhook_max_response_bytes)
    finally:
        await response.aclose()
    status = response.status_code
    if 200 <= status < 300:
        return status, None, None
    if 300 <= status < 400:
        location = response.headers.get("location", "")
        return status, f"redirect to {location[:200]!r} not followed", None
    wait = response.headers.get("retry-after") if status in retry_after.STATUSES else None
    return status, f"receiver answered {status}", wait


async def attempt(
    client: httpx.AsyncClient, url: str, body: bytes, headers: dict[str, str], settings: Settings
) -> AttemptResult:
    started = time.perf_counter()
    status: int | None = None
    wait: str | None = None
    try:
        async with asyncio.timeout(settings.webhook_timeout_seconds):
            status, error, wait = await _post(client, url, body, headers, settings)
    except TimeoutError:
        error = f"no answer within {settings.webhook_timeout_seconds:g} s"
    except UnsafeUrl as refused:
        error = f"refused: {refused}"
    except httpx.TimeoutException:
        error = f"no answer within {settings.webhook_timeout_seconds:g} s"
    except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as failure:
        # Anything else the client raises fails this attempt only: escaping would leave
        # the whole concurrent batch leased until the sweeper took it back.
        error = f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__
    latency_ms = round((time.perf_counter() - started) * 1000)
    return AttemptResult(
        succeeded=error is None,
        status_code=status,
        latency_ms=latency_ms,
        error=error[:ERROR_LIMIT] if error else None,
        retry_after=wait,
    )
