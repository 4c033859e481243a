#!/usr/bin/env python3
r"""Follow one competition through the read API and webhooks (standard library only).

Two ways to follow, both printing the standings each time they change:

    # 1. Poll: ask every 30 s; an unchanged table is a 304 with no body (and almost no work).
    python3 docs/examples/follow_competition.py poll \
        http://127.0.0.1:8000 lincon-2026 blokus-tournament

    # 2. Be told: register https://<this machine>/ at the desk (event → "Webhooks…", topics
    #    "standings changed" and "result confirmed"), copy its signing secret, then:
    python3 docs/examples/follow_competition.py receive --port 8765 --secret whsec_...

A webhook post is checked as Standard Webhooks says (the signature over id, timestamp and
body; a timestamp older than five minutes refused; a message id seen before ignored), then the
standings are fetched from the link the post carries (``data.api.standings``). Posts carry ids
and links only, never names: the API answers with the names as the public pages show them.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOLERANCE = 300  # seconds a webhook's timestamp may differ from our clock
MAX_BODY = 64 * 1024


class Standings:
    """One competition's standings, fetched again only when they changed (the ETag)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.etag: str | None = None
        self.rows: list[dict[str, Any]] = []

    def refresh(self) -> bool:
        """Ask again; True when the standings changed (200), False when not (304). A 429
        (too many requests) waits as long as its Retry-After says, then asks again."""
        request = urllib.request.Request(self.url, headers={"Accept": "application/json"})
        if self.etag:
            request.add_header("If-None-Match", self.etag)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                body = json.load(response)
                self.etag = response.headers.get("ETag")
        except urllib.error.HTTPError as error:
            if error.code == 304:
                return False
            if error.code == 429:
                time.sleep(int(error.headers.get("Retry-After", "60")))
                return self.refresh()
            raise
        self.rows = body["items"]
        return True

    def show(self, out: Callable[[str], None] = print) -> None:
        for row in self.rows:
            out(f"{row['place']:>3}  {row['name']}")


def standings_url(base: str, event: str, competition: str) -> str:
    return f"{base.rstrip('/')}/api/v1/events/{event}/competitions/{competition}/standings"


def verify(
    secret: str, headers: dict[str, str], body: bytes, now: float | None = None
) -> dict[str, Any] | None:
    """The post's JSON if it is signed with ``secret`` (``whsec_<base64 key>``) and recent,
    else None. ``headers`` with lower-case names."""
    try:
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
        message_id, timestamp = headers["webhook-id"], headers["webhook-timestamp"]
        if abs((now if now is not None else time.time()) - int(timestamp)) > TOLERANCE:
            return None
        signed = f"{message_id}.{timestamp}.".encode() + body
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        for entry in headers["webhook-signature"].split():
            version, _, signature = entry.partition(",")
            if version == "v1" and hmac.compare_digest(signature, expected):
                return json.loads(body)
    except (KeyError, ValueError):
        return None
    return None


class Receiver(ThreadingHTTPServer):
    """An HTTP server that hands every verified, not yet seen post to ``on_message``; it
    answers 204 to those, 401 to the rest (serve it with ``serve_forever``)."""

    daemon_threads = True

    def __init__(
        self, secret: str, on_message: Callable[[dict[str, Any]], None], port: int = 0
    ) -> None:
        super().__init__(("", port), Handler)
        self.secret, self.on_message = secret, on_message
        self.seen: set[str] = set()


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(min(length, MAX_BODY))
        headers = {name.lower(): value for name, value in self.headers.items()}
        message = verify(self.server.secret, headers, body)
        self.send_response(204 if message is not None else 401)
        self.end_headers()
        if message is not None and headers["webhook-id"] not in self.server.seen:
            self.server.seen.add(headers["webhook-id"])  # a retry of a post already handled
            self.server.on_message(message)

    def log_message(self, *args: object) -> None:
        pass


def on_post(message: dict[str, Any], followed: dict[str, Standings]) -> None:
    """Print what a post says; fetch the standings it links to when they may have changed."""
    data = message.get("data", {})
    print(f"{message.get('type')}: {data.get('event')} / {data.get('competition', '-')}")
    link = data.get("api", {}).get("standings")
    if link and message.get("type") in ("standings.changed", "result.confirmed"):
        standings = followed.setdefault(link, Standings(link))
        if standings.refresh():
            standings.show()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    poll = commands.add_parser("poll", help="ask the API for the standings every few seconds")
    poll.add_argument("base", help="the site, such as http://127.0.0.1:8000")
    poll.add_argument("event", help="the event's slug (GET /api/v1/events lists them)")
    poll.add_argument("competition", help="the competition's slug")
    poll.add_argument("--every", type=float, default=30, help="seconds between asks (30)")
    poll.add_argument("--times", type=int, default=0, help="stop after this many (0: never)")
    receive = commands.add_parser("receive", help="listen for the site's webhook posts")
    receive.add_argument("--port", type=int, default=8765)
    receive.add_argument("--secret", required=True, help="the webhook's whsec_… secret")
    args = parser.parse_args(argv)
    if args.command == "poll":
        standings = Standings(standings_url(args.base, args.event, args.competition))
        asked = 0
        while True:
            if standings.refresh():
                print(time.strftime("%H:%M:%S"), "the standings changed:")
                standings.show()
            asked += 1
            if args.times and asked >= args.times:
                return 0
            time.sleep(args.every)
    followed: dict[str, Standings] = {}
    server = Receiver(args.secret, lambda message: on_post(message, followed), args.port)
    print(f"listening on port {server.server_address[1]}", file=sys.stderr)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
