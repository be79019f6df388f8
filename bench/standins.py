"""bench/ai.py's stand-ins on loopback: a Chat Completions model and Twilio's Messages API,
each a real HTTP server in the bench's own event loop, answering at once.

The model finds each reply's text by its tag (a mark in the lead's text, found again in
the prompt). With `tool_rounds=1` it answers a reply's first request with one tool call
(`TOOL` with `ARGUMENTS`, which bench/ai.py's persona allows) and the request that brings
the call's result with the reply; it counts, per tag, the rounds whose result came back
under the call's own `tool_call_id` and accepted, so a figure that measured no tool round
says so. With `tool_rounds=0` it answers every request with the reply.
"""

import asyncio
import json
import re
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qsl

TAG = re.compile(r"\(ref ([a-j]+)\)")  # a text's own mark, found again in its prompt
MODEL_REPLY = "Yes, it is! Would you like to see it this week?"
TOOL = "set_qualification"
FIELD = "intent"  # a select field with the choice "buy" (bench/ai.py loads it)
ARGUMENTS = json.dumps({"values": [{"key": FIELD, "value": "buy"}]})
Handler = Callable[[str, bytes], Awaitable[tuple[int, bytes]]]


class Stub:
    """A minimal HTTP/1.1 keep-alive server on loopback, in this process's loop: each
    request's path and body go to `handler`, which gives the status and JSON body."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.server: asyncio.AbstractServer | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while request := await reader.readline():
                path = request.split(b" ")[1].decode() if request.count(b" ") >= 2 else ""
                length = 0
                while (header := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = header.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                status, body = await self.handler(path, await reader.readexactly(length))
                writer.write(
                    f"HTTP/1.1 {status} OK\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


class Model:
    """A Chat Completions server answering at once (see the module); it records when each
    text's first request arrived, and the tool rounds that came back right (`rounds`) or
    not (`wrong_rounds`: a result under another id, a refused call, tools not offered)."""

    def __init__(self, tool_rounds: int) -> None:
        self.tool_rounds = tool_rounds
        self.arrivals: dict[str, float] = {}
        self.calls: dict[str, str] = {}  # tag -> the tool_call_id of its latest call
        self.rounds: Counter[str] = Counter()
        self.wrong_rounds: Counter[str] = Counter()

    async def __call__(self, path: str, body: bytes) -> tuple[int, bytes]:
        if not path.endswith("/chat/completions"):
            return 404, b'{"error": {"message": "not found"}}'
        request = json.loads(body)
        messages = request.get("messages", [])
        tags = TAG.findall(json.dumps(messages))
        tag = tags[0] if tags else ""
        self.arrivals.setdefault(tag, time.monotonic())
        results = [m for m in messages if m.get("role") == "tool"]
        if results:
            self._check_round(tag, messages, results)
        elif self.tool_rounds:
            offered = {tool["function"]["name"] for tool in request.get("tools", [])}
            if TOOL in offered and request.get("tool_choice") != "none":
                self.calls[tag] = f"call_{tag}_{secrets.token_hex(6)}"
                call = {
                    "id": self.calls[tag],
                    "type": "function",
                    "function": {"name": TOOL, "arguments": ARGUMENTS},
                }
                message = {"role": "assistant", "content": None, "tool_calls": [call]}
                return 200, _completion(request, message, "tool_calls")
            self.wrong_rounds[tag] += 1  # no tool call possible: the reply gets no round
        content = json.dumps({"reply": MODEL_REPLY, "handoff": False, "handoff_reason": ""})
        message = {"role": "assistant", "content": content, "refusal": None}
        return 200, _completion(request, message, "stop")

    def _check_round(self, tag: str, messages: list[dict], results: list[dict]) -> None:
        """A round counts when the request carries the assistant's call and exactly one
        result, under the call's own id, that accepted it (`{"ok": true, ...}`)."""
        issued = self.calls.get(tag)
        asked = [
            call.get("id")
            for m in messages
            if m.get("role") == "assistant"
            for call in m.get("tool_calls") or []
        ]
        try:
            accepted = json.loads(results[0].get("content") or "").get("ok") is True
        except (ValueError, AttributeError):
            accepted = False
        if (
            issued is not None
            and asked == [issued]
            and len(results) == 1
            and results[0].get("tool_call_id") == issued
            and accepted
        ):
            self.rounds[tag] += 1
        else:
            self.wrong_rounds[tag] += 1


def _completion(request: dict, message: dict, finish_reason: str) -> bytes:
    return json.dumps(
        {
            "id": f"chatcmpl-{secrets.token_hex(8)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", ""),
            "choices": [
                {"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    ).encode()


class Twilio:
    """The Messages API's accepted answer (providers/twilio.py reads `sid`), and when
    each text first arrived, by its To."""

    def __init__(self) -> None:
        self.arrivals: dict[str, float] = {}
        self.bodies: dict[str, str] = {}
        self.count = 0
        self.arrived = asyncio.Event()

    async def __call__(self, path: str, body: bytes) -> tuple[int, bytes]:
        if not path.endswith("/Messages.json"):
            return 404, b'{"message": "not found"}'
        form = dict(parse_qsl(body.decode()))
        self.count += 1
        self.arrivals.setdefault(form.get("To", ""), time.monotonic())
        self.bodies.setdefault(form.get("To", ""), form.get("Body", ""))
        self.arrived.set()
        return 201, json.dumps({"sid": f"SM{secrets.token_hex(16)}", "status": "queued"}).encode()

    async def wait_for(self, numbers: list[str], deadline: float) -> bool:
        while not all(n in self.arrivals for n in numbers) and time.monotonic() < deadline:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                break
        return all(n in self.arrivals for n in numbers)
