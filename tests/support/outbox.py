"""Where the outbox sends: a mail server that is down, a webhook receiver on 127.0.0.1."""

from __future__ import annotations

import base64
import hashlib
import hmac
import queue
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.test import override_settings


def closed_port() -> int:
    """A local port nothing listens on: a mail server that is down."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_down():
    return override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=closed_port(),
        EMAIL_TIMEOUT=2,
    )


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Answer:
    status: int = 204
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    hold: threading.Event | None = None  # answer only once this is set (a receiver that hangs)


class Receiver:
    """A webhook receiver on 127.0.0.1: each request is put on ``received``; it answers with
    ``answer``."""

    def __init__(self) -> None:
        self.received: queue.Queue[Received] = queue.Queue()
        self.answer = Answer()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                receiver.received.put(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                answer = receiver.answer
                if answer.hold is not None:
                    answer.hold.wait(10)
                try:
                    self.send_response(answer.status)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(answer.body)))
                    self.end_headers()
                    self.wfile.write(answer.body)
                except OSError:  # the client stopped reading (the size cap, the timeout)
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def take(self, timeout: float = 5) -> Received:
        return self.received.get(timeout=timeout)

    def nothing(self) -> bool:
        return self.received.empty()

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.answer.hold is not None:
            self.answer.hold.set()
        self.server.shutdown()
        self.server.server_close()


def verify(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """Standard Webhooks, "Verifying webhooks", from the specification's text: the signed
    content is ``{msg_id}.{timestamp}.{payload}``; the key is the base64-decoded secret after
    its ``whsec_`` prefix; HMAC-SHA256, base64; the header holds space-separated
    ``v1,<signature>`` entries, one of which must match (compared in constant time)."""
    key = base64.b64decode(secret.split("_", 1)[1])
    content = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, content, hashlib.sha256).digest()).decode()
    for entry in headers["webhook-signature"].split(" "):
        version, _, value = entry.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return True
    return False
