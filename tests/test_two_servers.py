"""Two app servers, one PostgreSQL, one Redis: what one server writes, the other serves at once.

Two real gunicorn processes (production settings: DEBUG off, the HTTPS redirect on behind a
proxy header, persistent connections) and two background workers (``manage.py worker``, one
beside each server) share the test database and a Redis key prefix of their own. An organiser
logs in on server A and enters a round-robin result; a phone polling server B with the old
ETag gets the new page on its next poll (200, not 304), the same page A serves. Then the club
night goes on: the other results, entered on A and B in turn, each announced to the event's
webhook: every one delivered exactly once by the two workers together (nothing doubled,
nothing lost), and both servers serve the same, current page. Then the deadline sweep runs on
both servers' settings at the same moment: every expired turn is closed once, the two runs'
counts add up to what the database holds, and a third run finds nothing to do; server B's page
follows the sweep too.

PostgreSQL only: SQLite is one file for one machine, and the servers would not see the test's
rows (pytest-django keeps them in a transaction there). Needs Redis on 127.0.0.1:6379.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from redis import Redis

from events.models import Game
from events.outbox.models import OutboxMessage
from events.outbox.webhooks import webhook_create
from roundrobin.models import Turn
from tests.support.servers import (
    ROOT,
    HttpClient,
    csrf_token,
    free_port,
    gunicorn_server,
    redis_up,
)
from tests.support.stack import (
    REDIS_URL,
    organised_event,
    production_stack_env,
    roundrobin_league,
)

PASSWORD = "two-servers-desk-2026"
SWEEP = re.compile(r"closed (\d+) turns?, finished (\d+) games?")


pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="two app servers share one PostgreSQL: set DATABASE_URL=postgres://… "
        "(SQLite is one file for one machine, and pytest-django's rows stay uncommitted there)",
    ),
    pytest.mark.skipif(not redis_up(), reason="needs Redis on 127.0.0.1:6379 (.ci/run starts it)"),
]


def _without_tokens(html: str) -> str:
    return re.sub(r'(csrftoken": "|value=")[^"]+"', "", html)


def _sweep(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--once", "-v1"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _worker(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--interval", "0.2"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def _stop_worker(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)


class _Receiver(ThreadingHTTPServer):
    """A webhook receiver: every delivery's ``webhook-id`` and body, in arrival order."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Hook)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks"


class _Hook(BaseHTTPRequestHandler):
    server: _Receiver

    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with self.server.lock:
            self.server.deliveries.append((self.headers["webhook-id"], json.loads(body)))
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return None


def _counts(output: str) -> tuple[int, int]:
    found = SWEEP.search(output)
    assert found, f"the sweep's report not found in:\n{output}"
    return int(found.group(1)), int(found.group(2))


def test_a_club_night_on_two_servers(transactional_db, tmp_path, settings):
    now = timezone.now()
    event = organised_event("two-servers", PASSWORD, "Two servers", time_zone="Europe/Amsterdam")
    league = roundrobin_league(event, "League", 4, began=now)
    games = list(Game.objects.filter(round__session__competition=league).order_by("pk"))
    game = games[0]
    assert len(games) == 6  # four players, each against each
    public = reverse("roundrobin:tables", args=[event.slug, league.slug])
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the receiver is on loopback
    receiver = _Receiver()
    webhook_create(event=event, url=receiver.url, topics=["result.confirmed"])
    desk = reverse("roundrobin:desk_table", args=[event.slug, league.slug, 1])
    result = reverse("roundrobin:game_result", args=[event.slug, league.slug, game.pk])

    with ExitStack() as servers:
        env = servers.enter_context(
            production_stack_env("two-servers", tmp_path, WEBHOOKS_ALLOW_PRIVATE="1")
        )
        prefix = env["CACHE_KEY_PREFIX"]
        redis = Redis.from_url(REDIS_URL)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        servers.callback(receiver.server_close)
        servers.callback(receiver.shutdown)
        a = servers.enter_context(gunicorn_server(free_port(), env))
        b = servers.enter_context(gunicorn_server(free_port(), env))
        workers = ExitStack()
        servers.callback(workers.close)
        for _ in range(2):
            workers.callback(_stop_worker, _worker(env))

        # Health checks come over plain HTTP: no redirect to HTTPS for them, a page gets one.
        plain = HttpClient(b)
        assert plain.request("GET", "/healthz", headers={"X-Forwarded-Proto": "http"}).status == 200
        ready = plain.request("GET", "/readyz", headers={"X-Forwarded-Proto": "http"})
        assert ready.status == 200 and '"cache": "ok"' in ready.body, ready.body
        assert plain.request("GET", public, headers={"X-Forwarded-Proto": "http"}).status == 301

        # A phone on server B: the page, then a poll that is a 304.
        phone = HttpClient(b)
        before = phone.get(public, headers={"HX-Request": "true"})
        assert before.status == 200
        etag = before.headers["etag"]
        polled = phone.get(public, headers={"HX-Request": "true", "If-None-Match": etag})
        assert polled.status == 304
        # the version and the body came from the shared Redis
        assert redis.exists(f"{prefix}:1:live:v:c:{event.slug}/{league.slug}")
        assert any(redis.scan_iter(f"{prefix}:1:live:z:c:*"))

        # The organiser enters a result on server A (login and CSRF as a browser does).
        desk_client = HttpClient(a)
        desk_client.login("two-servers", PASSWORD)
        page = desk_client.get(desk)
        assert page.status == 200, page.body[:500]
        entered = desk_client.post(
            result,
            {
                "result": "1-0",
                "revision": str(game.revision),
                "csrfmiddlewaretoken": csrf_token(page.body),
            },
        )
        assert entered.status == 302, entered.body[:2000]
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED

        # The phone's next poll on B: the new page at once, the same one A serves.
        after = phone.get(public, headers={"HX-Request": "true", "If-None-Match": etag})
        assert after.status == 200
        assert after.headers["etag"] != etag
        assert after.body != before.body
        on_a = HttpClient(a).get(public, headers={"HX-Request": "true"})
        assert _without_tokens(after.body) == _without_tokens(on_a.body)
        again = phone.get(
            public, headers={"HX-Request": "true", "If-None-Match": after.headers["etag"]}
        )
        assert again.status == 304

        # The rest of the night, on A and B in turn: each result announced to the webhook.
        clients = {a: desk_client, b: HttpClient(b, cookies=dict(desk_client.cookies))}
        for index, other in enumerate(games[1:]):
            server = (b, a)[index % 2]
            page = clients[server].get(desk)
            other.refresh_from_db()
            answer = clients[server].post(
                reverse("roundrobin:game_result", args=[event.slug, league.slug, other.pk]),
                {
                    "result": ("0-1", "1-0", "1/2-1/2")[index % 3],
                    "revision": str(other.revision),
                    "csrfmiddlewaretoken": csrf_token(page.body),
                },
            )
            assert answer.status == 302, answer.body[:2000]
        assert not Game.objects.filter(pk__in=[g.pk for g in games]).exclude(
            status=Game.Status.FINISHED
        )
        # Delivered by the two workers together: each once, none lost.
        messages = OutboxMessage.objects.filter(channel=OutboxMessage.Channel.WEBHOOK)
        assert messages.count() == 6
        deadline = time.monotonic() + 60
        while messages.exclude(status=OutboxMessage.Status.SENT).exists():
            assert time.monotonic() < deadline, list(messages.values("status", "last_error"))
            time.sleep(0.1)
        workers.close()  # stopped: anything doubled would have arrived by now
        ids = [delivery[0] for delivery in receiver.deliveries]
        assert len(ids) == len(set(ids)) == 6, ids
        assert {d[1]["data"]["game"] for d in receiver.deliveries} == {g.pk for g in games}
        assert all(m.attempts == 1 for m in messages)
        # Both servers serve the same, current page.
        final_a = HttpClient(a).get(public, headers={"HX-Request": "true"})
        final_b = HttpClient(b).get(public, headers={"HX-Request": "true"})
        assert final_a.headers["etag"] == final_b.headers["etag"]
        assert _without_tokens(final_a.body) == _without_tokens(final_b.body)
        league.refresh_from_db()
        assert f".{league.version}." in final_b.headers["etag"]

        # The deadline sweep on both servers' settings at once: no turn closed twice.
        # Started 50 hours ago: every game's first turns passed their deadlines unplayed.
        clock = roundrobin_league(event, "Clock", 4, began=now - dt.timedelta(hours=50))
        clock_public = reverse("roundrobin:tables", args=[event.slug, clock.slug])
        clock_etag = phone.get(clock_public).headers["etag"]
        expired = Turn.objects.filter(
            game__round__session__competition=clock, closed_at__isnull=True, deadline__lt=now
        ).count()
        assert expired > 0
        runs = [_sweep(env), _sweep(env)]
        outputs = [run.communicate(timeout=120)[0] for run in runs]
        assert all(run.returncode == 0 for run in runs), outputs
        closed = sum(_counts(out)[0] for out in outputs)
        finished = sum(_counts(out)[1] for out in outputs)
        clock_turns = Turn.objects.filter(game__round__session__competition=clock)
        assert closed == clock_turns.filter(closed_at__isnull=False).count() > 0
        assert not clock_turns.filter(closed_at__isnull=True, deadline__lt=timezone.now()).exists()
        games = Game.objects.filter(round__session__competition=clock)
        assert finished == games.filter(status=Game.Status.FINISHED).count()
        for g in games:
            numbers = list(
                clock_turns.filter(game=g).order_by("number").values_list("number", flat=True)
            )
            assert numbers == list(range(1, len(numbers) + 1))
        third = _sweep(env)
        assert _counts(third.communicate(timeout=120)[0]) == (0, 0)

        # ... and server B's page follows the sweep at once.
        swept = phone.get(clock_public, headers={"If-None-Match": clock_etag})
        assert swept.status == 200
