"""A real Chat Completions server on 127.0.0.1 for the AI responder's tests.

It answers POST /v1/chat/completions as OpenAI does (a `chat.completion` object) and
records every request: path, headers (lower-cased names) and the parsed JSON body. Each
test scripts the answer with `respond_with`: a content (a JSON object's text, plain
text, or None for an empty message), an HTTP error status, a delay before answering,
an answer held until the test lets it go (`hold=True`, then `let_go()`), a connection
closed without an answer, or a raw body of any content type.

It runs on a thread (http.server), so it answers whether the test awaits on the event
loop (the responder in-process) or blocks (a served `homebase` process under test).
"""

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support import until

PATH = "/v1/chat/completions"
HOLD_LIMIT = 10.0  # a held answer goes out by then even if the test never lets it go


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # the parsed JSON, or None when the body was not JSON
    client_port: int  # the same port twice: one connection, kept alive


@dataclass
class Answer:
    content: str | None = '{"reply": "Hi there!", "handoff": false, "handoff_reason": ""}'
    status: int = 200
    delay: float = 0.0  # seconds before answering
    hold: bool = False  # wait for let_go() before answering (at most HOLD_LIMIT seconds)
    close: bool = False  # close the connection without answering
    raw: bytes | None = None  # this body instead of a completion
    content_type: str = "application/json"
    # Function calls instead of content: (name, arguments) each, the arguments a dict
    # (sent as its JSON text) or a str (sent as is, to try what a server may send).
    tool_calls: list[tuple[str, dict | str]] | None = None


@dataclass
class ChatServer:
    answer: Answer = field(default_factory=Answer)
    requests: list[Recorded] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    released: threading.Event = field(default_factory=threading.Event)
    let_go_event: threading.Event = field(default_factory=threading.Event)
    connections: set[socket.socket] = field(default_factory=set)
    script: list[Answer] = field(default_factory=list)  # answers in turn, then `answer`

    @property
    def base_url(self) -> str:
        """HOMEBASE_AI_BASE_URL for this server (the library appends /chat/completions)."""
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def respond_with(
        self,
        *,
        json_object: dict | None = None,
        text: str | None = None,
        empty: bool = False,
        status: int = 200,
        delay: float = 0.0,
        hold: bool = False,
        close: bool = False,
        raw: bytes | None = None,
        content_type: str = "application/json",
    ) -> None:
        """What every following request gets; by default a JSON object with a reply.
        With `hold`, answers wait until `let_go()` (after which they go at once)."""
        if json_object is not None:
            content = json.dumps(json_object)
        elif text is not None or empty:
            content = text
        else:
            content = Answer().content
        if hold:
            self.let_go_event.clear()
        self.answer = Answer(content, status, delay, hold, close, raw, content_type)

    def respond_in_turn(self, *answers: Answer) -> None:
        """Each following request gets the next of `answers`; after them, `answer`."""
        with self.lock:
            self.script = list(answers)

    def let_go(self) -> None:
        """Held answers go out now, and those that follow are not held."""
        self.let_go_event.set()

    def recorded(self) -> list[Recorded]:
        with self.lock:
            return list(self.requests)

    def wait_for(self, count: int, within: float = 60) -> list[Recorded]:
        until(
            lambda: len(self.recorded()) >= count,
            within,
            every=0.02,
            what=lambda: f"{len(self.recorded())} of {count} requests arrived",
        )
        return self.recorded()

    def start(self) -> "ChatServer":
        chat = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the client's pool expects

            def setup(self) -> None:
                super().setup()
                with chat.lock:
                    chat.connections.add(self.connection)

            def finish(self) -> None:
                with chat.lock:
                    chat.connections.discard(self.connection)
                try:
                    super().finish()
                except OSError:  # the client went first (a timeout, a closed test)
                    pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                headers = {name.lower(): value for name, value in self.headers.items()}
                with chat.lock:
                    port = self.client_address[1]
                    chat.requests.append(Recorded(self.path, headers, body, port))
                    answer = chat.script.pop(0) if chat.script else chat.answer
                if answer.delay and chat.released.wait(answer.delay):
                    self.close_connection = True
                    return  # stopped while waiting
                if answer.hold:
                    chat.let_go_event.wait(HOLD_LIMIT)
                    if chat.released.is_set():
                        self.close_connection = True
                        return  # stopped while held
                if answer.close:
                    self.close_connection = True
                    return  # not a byte of an answer: the client sees the connection drop
                status, payload = _payload(self.path, body, answer)
                data = answer.raw if answer.raw is not None else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", answer.content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client timed out and hung up
                    self.close_connection = True

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.released.set()
        self.let_go_event.set()
        self.server.shutdown()
        with self.lock:
            open_ones = list(self.connections)
        for connection in open_ones:  # keep-alive connections the client left open
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.server.server_close()


def _payload(path: str, body: Any, answer: Answer) -> tuple[int, dict]:
    if path != PATH:
        return 404, _error("not found", "invalid_request_error")
    if answer.status != 200:
        kind = "rate_limit_exceeded" if answer.status == 429 else "server_error"
        return answer.status, _error(f"scripted status {answer.status}", kind)
    messages = body.get("messages", []) if isinstance(body, dict) else []
    prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in messages)
    completion_tokens = len((answer.content or "").split())
    message: dict[str, Any] = {"role": "assistant", "content": answer.content, "refusal": None}
    finish = "stop"
    if answer.tool_calls is not None:
        finish = "tool_calls"
        message["content"] = None
        message["tool_calls"] = [
            {
                "id": f"call_{time.monotonic_ns()}_{index}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
            for index, (name, arguments) in enumerate(answer.tool_calls)
        ]
    return 200, {
        "id": f"chatcmpl-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "") if isinstance(body, dict) else "",
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _error(message: str, kind: str) -> dict:
    return {"error": {"message": message, "type": kind, "param": None, "code": kind}}


def calls(*tool_calls: tuple[str, dict | str]) -> Answer:
    """An answer that calls these tools."""
    return Answer(content=None, tool_calls=list(tool_calls))


def replying(text: str, **more: Any) -> Answer:
    """An answer with this reply (a JSON object, as the service asks)."""
    return Answer(
        content=json.dumps({"reply": text, "handoff": False, "handoff_reason": "", **more})
    )
