"""Helpers for the body-limit tests: the app called over raw ASGI with a counted body, and
a real uvicorn server on a free loopback port fed a chunked body over a socket."""

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import orjson
import uvicorn

from tests.support import until

LIMIT = 1_048_576  # HOMEBASE_MAX_BODY_BYTES's default, which these tests run with
CHUNK = 65_536


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    consumed: int  # body bytes the app took from the server through receive()
    sent: int = 0  # body bytes the client had sent when the answer came (socket tests)

    def json(self) -> dict:
        return orjson.loads(self.body)


class CountingApp:
    """Wraps the app to count the body bytes it pulled through receive()."""

    def __init__(self, app):
        self.app, self.consumed = app, 0

    async def __call__(self, scope, receive, send):
        async def counted():
            message = await receive()
            self.consumed += len(message.get("body", b""))
            return message

        await self.app(scope, counted, send)


async def call_asgi(
    app,
    method: str,
    path: str,
    headers: dict[str, str],
    chunks: list[bytes] | None = None,
    *,
    streamed: int = 0,
    http_version: str = "1.1",
) -> Answer:
    """One request over raw ASGI. `streamed` sends that many bytes in CHUNK-sized pieces
    instead of `chunks` (a large upload without a declared length). A body sent without
    a Content-Length goes as HTTP/1.1 chunked does (Transfer-Encoding: chunked)."""
    chunks = list(chunks or [])
    consumed = 0

    async def receive():
        nonlocal consumed
        if streamed:
            piece = min(CHUNK, streamed - consumed)
            consumed += piece
            return {"type": "http.request", "body": b"x" * piece, "more_body": consumed < streamed}
        body = chunks.pop(0) if chunks else b""
        consumed += len(body)
        return {"type": "http.request", "body": body, "more_body": bool(chunks)}

    messages = []

    async def send(message):
        messages.append(message)

    if (chunks or streamed) and "content-length" not in headers and http_version == "1.1":
        headers = {**headers, "transfer-encoding": "chunked"}
    raw_headers = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": http_version,
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *raw_headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    await app(scope, receive, send)
    starts = [m for m in messages if m["type"] == "http.response.start"]
    assert len(starts) == 1, messages
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    head = {name.decode(): value.decode() for name, value in starts[0]["headers"]}
    return Answer(starts[0]["status"], head, body, consumed)


@asynccontextmanager
async def serving(app) -> AsyncIterator[int]:
    """uvicorn in this event loop on a loopback socket bound to a free port; yields it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:

        def started() -> bool:
            if task.done():
                task.result()  # its start-up failed: raises that
            return server.started

        await until(started, 60, every=0.01, what="uvicorn's start")
        yield port
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)
        sock.close()


async def post_chunked(port: int, path: str, headers: dict[str, str], total: int) -> Answer:
    """POSTs `total` bytes chunked (Transfer-Encoding: chunked), CHUNK at a time, and stops
    sending as soon as the server answers. Answer.sent says how far it got."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Transfer-Encoding: chunked",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
    response = asyncio.create_task(_read_response(reader))
    sent = 0
    try:
        while sent < total and not response.done():
            piece = b"x" * min(CHUNK, total - sent)
            writer.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            await writer.drain()
            sent += len(piece)
            await asyncio.sleep(0)  # let the server (same loop) read and answer
        if not response.done():
            writer.write(b"0\r\n\r\n")
            await writer.drain()
        status, answer_headers, body = await asyncio.wait_for(response, 30)
    finally:
        writer.close()
    return Answer(status, answer_headers, body, consumed=-1, sent=sent)


async def post_declared(port: int, path: str, headers: dict[str, str], length: int) -> Answer:
    """Declares `length` in Content-Length, sends no body, and waits for the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        f"Content-Length: {length}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
    await writer.drain()
    try:
        status, answer_headers, body = await asyncio.wait_for(_read_response(reader), 30)
    finally:
        writer.close()
    return Answer(status, answer_headers, body, consumed=-1)


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    status_line = await reader.readline()
    status = int(status_line.split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body
