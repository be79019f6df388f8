"""A real HTTP receiver on 127.0.0.1 for webhook tests: records raw bodies and headers,
answers with scripted statuses, and can stall (for timeouts and killed workers)."""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.support import until


@dataclass
class Received:
    headers: dict[str, str]  # lower-cased names
    body: bytes
    at: float  # time.monotonic() when the request was complete


@dataclass
class Receiver:
    """`respond(request) -> (status, extra headers, delay seconds)` scripts each answer;
    by default 200 at once. A delay of None holds the request open until stopped."""

    respond: Callable[[Received], tuple[int, dict[str, str], float | None]] = lambda request: (
        200,
        {},
        0,
    )
    requests: list[Received] = field(default_factory=list)
    server: asyncio.AbstractServer | None = None
    _release: asyncio.Event = field(default_factory=asyncio.Event)
    _writers: set = field(default_factory=set)

    @property
    def port(self) -> int:
        return self.server.sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def start(self) -> "Receiver":
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self

    async def stop(self) -> None:
        self._release.set()
        self.server.close()
        for writer in list(self._writers):  # keep-alive connections the client left open
            writer.close()
        await asyncio.sleep(0)

    async def wait_for(self, count: int, within: float = 60) -> list[Received]:
        await until(
            lambda: len(self.requests) >= count,
            within,
            every=0.01,
            what=lambda: f"{len(self.requests)} of {count} requests arrived",
        )
        return self.requests

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self._writers.add(writer)
        try:
            while True:
                request = await self._read(reader)
                if request is None:
                    break
                self.requests.append(request)
                status, headers, delay, *rest = self.respond(request)
                if delay is None:
                    await self._release.wait()
                    break
                if delay:
                    await asyncio.sleep(delay)
                # Optionally (body, declared length): a longer declared length stalls after
                # the body, like a receiver streaming an endless reply.
                body, declared = rest if rest else (b"ok", 2)
                head = [
                    f"HTTP/1.1 {status} X",
                    f"Content-Length: {declared}",
                    *(f"{name}: {value}" for name, value in headers.items()),
                ]
                writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
                await writer.drain()
                if declared > len(body):
                    await self._release.wait()
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    @staticmethod
    async def _read(reader: asyncio.StreamReader) -> Received | None:
        line = await reader.readline()
        if not line:
            return None
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        return Received(headers=headers, body=body, at=time.monotonic())


def script(*statuses: int) -> Callable[[Received], tuple[int, dict[str, str], float]]:
    """Answer the n-th request with statuses[n] (the last one repeating)."""
    counter = iter(range(10**6))

    def respond(_request: Received) -> tuple[int, dict[str, str], float]:
        index = next(counter)
        return statuses[min(index, len(statuses) - 1)], {}, 0

    return respond
