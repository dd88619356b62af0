"""A local HTTP server that answers ``POST /v1/embeddings`` the way the OpenAI API does.

Tests point the real ``openai`` SDK at it (``base_url=stub.base_url``), so the request the SDK builds,
its retries and its error classes are all exercised; only the network peer is fake. Vectors are a
deterministic function of the text (:func:`stub_vector`) so tests can predict every answer.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

__all__ = ["EmbeddingStub", "RecordedRequest", "stub_vector"]


def stub_vector(text: str, dimensions: int) -> list[float]:
    """The (unnormalised) vector the stub returns for ``text``: seeded by its hash, never unit length."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    vector: list[float] = (np.random.default_rng(seed).normal(size=dimensions) * 3.0).tolist()
    return vector


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    authorization: str | None
    body: dict[str, Any]


@dataclass
class EmbeddingStub:
    """The server's state and behaviour; tests change the knobs between calls.

    ``status`` other than 200 answers every request with an OpenAI-style error body (and a 1 ms
    ``retry-after-ms`` so the SDK's retries do not slow the suite down). ``reverse`` returns the data
    items in reverse ``index`` order; ``vector_size`` overrides the requested dimensions; ``delay_s``
    sleeps before answering.
    """

    status: int = 200
    reverse: bool = False
    vector_size: int | None = None
    delay_s: float = 0.0
    requests: list[RecordedRequest] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _server: _StubServer | None = field(default=None, repr=False)

    @property
    def base_url(self) -> str:
        assert self._server is not None, "stub not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> None:
        self._server = _StubServer(self)
        server = self._server
        threading.Thread(
            target=lambda: server.serve_forever(poll_interval=0.02), name="embedding-stub", daemon=True
        ).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Status and JSON payload for one request body."""
        if self.delay_s:
            time.sleep(self.delay_s)
        if self.status != 200:
            return self.status, {
                "error": {
                    "message": f"stub error {self.status}",
                    "type": "invalid_request_error" if self.status < 500 else "server_error",
                    "param": None,
                    "code": "invalid_api_key" if self.status == 401 else None,
                }
            }
        inputs: list[str] = body["input"] if isinstance(body["input"], list) else [body["input"]]
        size = self.vector_size or int(body.get("dimensions", 1536))
        items = [
            _item(index, stub_vector(text, size), body.get("encoding_format"))
            for index, text in enumerate(inputs)
        ]
        if self.reverse:
            items.reverse()
        tokens = sum(len(text.split()) for text in inputs)
        return 200, {
            "object": "list",
            "data": items,
            "model": body["model"],
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }


def _item(index: int, vector: list[float], encoding_format: object) -> dict[str, Any]:
    embedding: list[float] | str = vector
    if encoding_format == "base64":
        embedding = base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode()
    return {"object": "embedding", "index": index, "embedding": embedding}


class _StubServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, stub: EmbeddingStub) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.stub = stub


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _StubServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body: dict[str, Any] = json.loads(self.rfile.read(length) or b"{}")
        stub = self.server.stub
        stub.record(RecordedRequest(self.path, self.headers.get("Authorization"), body))
        if self.path != "/v1/embeddings":
            status, payload = 404, {"error": {"message": f"no route {self.path}", "type": "not_found"}}
        else:
            status, payload = stub.answer(body)
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status != 200:
            self.send_header("retry-after-ms", "1")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""
