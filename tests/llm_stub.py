"""A local HTTP server that answers ``POST /v1/chat/completions`` (OpenAI) and ``POST /v1/messages``
(Anthropic) the way those APIs do.

Tests point the real SDKs at it (``base_url=stub.openai_url`` / ``stub.anthropic_url``), so the request
each SDK builds, its retries and its error classes are all exercised; only the network peer is fake.
Answers are scripted (:meth:`LLMStub.script`, or the ``reply`` callable), and failures are injected
for the next N calls (:meth:`LLMStub.fail`, :meth:`LLMStub.break_body`).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final, Literal

__all__ = [
    "ANTHROPIC_PATH",
    "OPENAI_PATH",
    "BrokenBody",
    "LLMStub",
    "RecordedRequest",
    "Reply",
    "ToolCall",
    "echo",
    "prompt_of",
]


#: A list is answered as several Anthropic text blocks (joined into one message for OpenAI); a dict is a
#: structured answer: an Anthropic ``tool_use`` block for the forced tool, or JSON text for OpenAI. A str
#: answers a structured request as a model that ignores the schema would: Anthropic text instead of the
#: tool call, OpenAI content as it is (so malformed JSON can be scripted).
@dataclass(frozen=True)
class ToolCall:
    """An OpenAI chat completion that calls a function tool (``finish_reason: tool_calls``), as an
    agent framework's model would; OpenAI only (the Anthropic route answers 400)."""

    name: str
    arguments: dict[str, Any]


Reply = str | list[str] | dict[str, Any] | ToolCall
BrokenBody = Literal["json", "shape"]

OPENAI_PATH: Final = "/v1/chat/completions"
ANTHROPIC_PATH: Final = "/v1/messages"
_ANTHROPIC_ERROR_TYPES: Final = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    529: "overloaded_error",
}


def prompt_of(body: dict[str, Any]) -> str:
    """The text of the last user message of either request format."""
    user = [message for message in body.get("messages", []) if message.get("role") == "user"]
    content = user[-1]["content"] if user else ""
    if isinstance(content, list):  # content blocks
        return "".join(str(block.get("text", "")) for block in content)
    return str(content)


def echo(body: dict[str, Any]) -> str:
    """The default reply: repeats the prompt, so a test can tell which request an answer belongs to."""
    return f"echo: {prompt_of(body)}"


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    #: ``Authorization`` (OpenAI sends ``Bearer <key>``).
    authorization: str | None
    #: ``x-api-key`` (Anthropic's key header).
    api_key: str | None
    anthropic_version: str | None
    body: dict[str, Any]


@dataclass
class LLMStub:
    """The server's state and behaviour; tests change the knobs between calls.

    Each request takes, in order: the next injected failure status, else the next broken body, else
    the next scripted reply, else ``reply(body)``. Error answers carry a 1 ms ``retry-after-ms`` so the
    SDKs' retries (0.5 s back-off by default) do not slow the suite down. ``anthropic_blocks`` are
    content blocks put before the text or tool-use ones (e.g. a thinking block); ``delay_s`` sleeps first.
    :meth:`hold` keeps every answer back until :meth:`release` (a model still thinking, for as long as
    the test needs), and :meth:`wait_for_requests` waits for the calls to arrive.
    """

    reply: Callable[[dict[str, Any]], Reply] = echo
    anthropic_blocks: list[dict[str, Any]] = field(default_factory=list)
    delay_s: float = 0.0
    requests: list[RecordedRequest] = field(default_factory=list)
    _replies: deque[Reply] = field(default_factory=deque, repr=False)
    _failures: deque[int] = field(default_factory=deque, repr=False)
    _broken: deque[BrokenBody] = field(default_factory=deque, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _released: threading.Event = field(default_factory=threading.Event, repr=False)
    _server: _StubServer | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._released.set()

    @property
    def root_url(self) -> str:
        assert self._server is not None, "stub not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def openai_url(self) -> str:
        """``base_url`` for the OpenAI SDK, which expects the ``/v1`` prefix in it."""
        return f"{self.root_url}/v1"

    @property
    def anthropic_url(self) -> str:
        """``base_url`` for the Anthropic SDK, which adds ``/v1/messages`` itself."""
        return self.root_url

    def start(self) -> None:
        self._server = _StubServer(self)
        server = self._server
        threading.Thread(
            target=lambda: server.serve_forever(poll_interval=0.02), name="llm-stub", daemon=True
        ).start()

    def stop(self) -> None:
        self._released.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def script(self, *replies: Reply) -> None:
        """Answer the next successful calls with these replies, in order."""
        with self._lock:
            self._replies.extend(replies)

    def fail(self, status: int, times: int = 1) -> None:
        """Answer the next ``times`` calls with an API error of HTTP ``status``."""
        with self._lock:
            self._failures.extend([status] * times)

    def break_body(self, kind: BrokenBody = "json", times: int = 1) -> None:
        """Answer the next ``times`` calls with HTTP 200 and a body that is not JSON, or JSON of the
        wrong shape (``{}``)."""
        with self._lock:
            self._broken.extend([kind] * times)

    def hold(self) -> None:
        """Keep the answers of the calls from now on back until :meth:`release`."""
        self._released.clear()

    def release(self) -> None:
        self._released.set()

    def wait_for_requests(self, count: int, timeout_s: float = 30.0) -> None:
        """Wait until ``count`` calls have arrived since the start (held ones count: they have arrived)."""
        deadline = time.monotonic() + timeout_s
        while len(self.requests) < count:
            assert time.monotonic() < deadline, f"{len(self.requests)} calls after {timeout_s} s, not {count}"
            time.sleep(0.01)

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def answer(self, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        """Status and raw payload for one request."""
        self._released.wait(timeout=60)
        if self.delay_s:
            time.sleep(self.delay_s)
        with self._lock:
            status = self._failures.popleft() if self._failures else 200
            broken = self._broken.popleft() if status == 200 and self._broken else None
            scripted = self._replies.popleft() if status == 200 and not broken and self._replies else None
        if status != 200:
            return status, _dump(_error(path, status))
        if broken == "json":
            return 200, b'{"id": "truncated'
        if broken == "shape":
            return 200, b"{}"
        reply = scripted if scripted is not None else self.reply(body)
        if isinstance(reply, ToolCall):
            if path != OPENAI_PATH:
                return 400, _dump(_error(path, 400))
            return 200, _dump(_openai_tool_call(body, reply, len(self.requests)))
        if isinstance(reply, dict):
            if path == OPENAI_PATH:
                return 200, _dump(_openai_completion(body, json.dumps(reply), len(self.requests)))
            return 200, _dump(_anthropic_tool_use(body, reply, self.anthropic_blocks, len(self.requests)))
        blocks = [reply] if isinstance(reply, str) else reply
        if path == OPENAI_PATH:
            return 200, _dump(_openai_completion(body, "".join(blocks), len(self.requests)))
        return 200, _dump(_anthropic_message(body, blocks, self.anthropic_blocks, len(self.requests)))


def _openai_completion(body: dict[str, Any], text: str, number: int) -> dict[str, Any]:
    tokens = len(text.split())
    return {
        "id": f"chatcmpl-stub-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body["model"],
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 7, "completion_tokens": tokens, "total_tokens": 7 + tokens},
    }


def _openai_tool_call(body: dict[str, Any], call: ToolCall, number: int) -> dict[str, Any]:
    completion = _openai_completion(body, "", number)
    completion["choices"][0]["finish_reason"] = "tool_calls"
    completion["choices"][0]["message"] = {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "tool_calls": [
            {
                "id": f"call_stub_{number}",
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
            }
        ],
    }
    return completion


def _anthropic_message(
    body: dict[str, Any], texts: list[str], leading: list[dict[str, Any]], number: int
) -> dict[str, Any]:
    # The real API answers an empty completion with an empty content list, not an empty text block.
    content = [*leading, *({"type": "text", "text": text} for text in texts if text)]
    return {
        "id": f"msg_stub_{number}",
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": content,
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 7, "output_tokens": sum(len(text.split()) for text in texts)},
    }


def _anthropic_tool_use(
    body: dict[str, Any], data: dict[str, Any], leading: list[dict[str, Any]], number: int
) -> dict[str, Any]:
    name = body.get("tool_choice", {}).get("name", "tool")
    tool_use = {"type": "tool_use", "id": f"toolu_stub_{number}", "name": name, "input": data}
    return {
        "id": f"msg_stub_{number}",
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": [*leading, tool_use],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 7, "output_tokens": len(json.dumps(data).split())},
    }


def _error(path: str, status: int) -> dict[str, Any]:
    message = f"stub error {status}"
    if path == ANTHROPIC_PATH:
        kind = _ANTHROPIC_ERROR_TYPES.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind = "invalid_request_error" if status < 500 else "server_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _dump(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload).encode()


class _StubServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, stub: LLMStub) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.stub = stub


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _StubServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body: dict[str, Any] = json.loads(self.rfile.read(length) or b"{}")
        stub = self.server.stub
        stub.record(
            RecordedRequest(
                path=self.path,
                authorization=self.headers.get("Authorization"),
                api_key=self.headers.get("x-api-key"),
                anthropic_version=self.headers.get("anthropic-version"),
                body=body,
            )
        )
        if self.path in (OPENAI_PATH, ANTHROPIC_PATH):
            status, data = stub.answer(self.path, body)
        else:
            status, data = 404, _dump({"error": {"message": f"no route {self.path}", "type": "not_found"}})
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status != 200:
            self.send_header("retry-after-ms", "1")
        self.end_headers()
        # The client may have given up first (a timeout test): nobody is left to answer then.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""
