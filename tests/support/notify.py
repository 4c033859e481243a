"""Notifications in tests: a VAPID key pair, a browser's push subscription, a push service
that receives, a queued notice."""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.test import override_settings

from events.management.commands.vapid_keys import new_keys
from events.outbox import notify

NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)
PRIVATE, PUBLIC = new_keys()
VAPID = override_settings(
    VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC, VAPID_SUBJECT="mailto:desk@example.org"
)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Browser:
    """A browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.p256dh = b64(
            self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        )

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


class PushService:
    """A push service on 127.0.0.1 that keeps what it receives and answers ``status``."""

    def __init__(self, status: int = 201) -> None:
        self.status = status
        self.received: list[tuple[dict, bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                service.received.append(
                    ({k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length))
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "/push/abc") -> str:
        return f"http://127.0.0.1:{self.server.server_port}{path}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def notice(player, key="k", subject_key="s", **kw):
    return notify.Notice(
        player=player,
        key=key,
        subject_key=subject_key,
        title=kw.pop("title", "Round 1: table 2"),
        body=kw.pop("body", "Round 1: table 2, colour blue"),
        url="https://events.example.org/x/",
        language=player.language,
        **kw,
    )
