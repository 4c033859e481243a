"""Smoke test of the production command (`make serve` = `python -m config.serve`).

gunicorn (not runserver) and the deadline loop, on a scratch PostgreSQL database with Redis:
ready, a public page, the desk after logging in, a result submitted, the public ETag changed,
then SIGTERM while a request is in flight: the request still completes (200, saved) and the
command exits 0. Everything it starts is killed in a finalizer. PostgreSQL only (the command
refuses SQLite); Redis from REDIS_URL, else a private redis-server on a free port.
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import psycopg
import pytest

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = DATABASE_URL.startswith(("postgres://", "postgresql://"))

pytestmark = pytest.mark.skipif(
    not ON_POSTGRES,
    reason="make serve runs on PostgreSQL only (it refuses SQLite): set DATABASE_URL=postgres://…",
)

TEST_ONLY = {
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "SECURE_SSL_REDIRECT",
    "SECRET_KEY",
    "EMAIL_BACKEND",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
}
START_TIMEOUT = 120.0  # migrations on an empty database included
STEP_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(condition: Callable[[], object], what: str, timeout: float = STEP_TIMEOUT) -> object:
    """Poll ``condition`` until it returns something truthy (a condition, not a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


# --- what the test starts ------------------------------------------------------------------


@pytest.fixture
def scratch_database() -> Iterator[str]:
    parts = urlsplit(DATABASE_URL)
    name = f"serve_smoke_{os.getpid()}_{secrets.token_hex(3)}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def redis_url() -> Iterator[str]:
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs Redis: set REDIS_URL or install redis-server")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: _accepts(port), "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait()


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@dataclass
class Served:
    process: subprocess.Popen[str]
    port: int
    env: dict[str, str]
    lines: list[str] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        self.process.wait()
        with self.changed:  # the end of the output: whoever waits for a line stops waiting
            self.changed.notify_all()

    def wait_for_line(self, pattern: str, timeout: float = STEP_TIMEOUT) -> str:
        regex = re.compile(pattern)

        def found() -> str | None:
            return next((line for line in self.lines if regex.search(line)), None)

        with self.changed:
            ended = lambda: found() or self.process.poll() is not None  # noqa: E731
            if not self.changed.wait_for(ended, timeout):
                raise AssertionError(f"no line matching {pattern!r}:\n" + self.log)
        line = found()
        assert line, f"exited ({self.process.poll()}) before {pattern!r}:\n" + self.log
        return line

    @property
    def log(self) -> str:
        return "\n".join(self.lines[-60:])


@pytest.fixture
def served(scratch_database: str, redis_url: str, tmp_path: Path) -> Iterator[Served]:
    port = free_port()
    env = {
        # The environment of a server, not of this test run (config/test_settings.py sets some).
        **{k: v for k, v in os.environ.items() if k not in TEST_ONLY},
        "DATABASE_URL": scratch_database,
        "REDIS_URL": redis_url,
        "CACHE_KEY_PREFIX": urlsplit(scratch_database).path.strip("/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SITE_URL": f"https://127.0.0.1:{port}",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "VAR_DIR": str(tmp_path / "var"),
        "GUNICORN_CMD_ARGS": f"--bind 127.0.0.1:{port} --workers 2",
        "PYTHONUNBUFFERED": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "config.serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # one process group: serve, gunicorn, its workers, the loop
    )
    serve = Served(process, port, env)
    reader = threading.Thread(target=serve.read, daemon=True)
    reader.start()
    try:
        yield serve
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        else:  # serve is gone; anything it left behind in its group goes too
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.wait()
        reader.join(timeout=5)


# --- a tiny HTTPS-behind-a-proxy client ---------------------------------------------------


class Browser:
    """http.client with a cookie jar, speaking as the TLS proxy does (X-Forwarded-Proto)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"https://127.0.0.1:{port}"
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: dict[str, str] | None = None, **headers: str
    ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=STEP_TIMEOUT)
        try:
            conn.request(method, path, self.encode(body), self.headers(body, headers))
            response = conn.getresponse()
            return self.read(response)
        finally:
            conn.close()

    def encode(self, body: dict[str, str] | None) -> bytes | None:
        return urlencode(body).encode() if body is not None else None

    def headers(self, body: dict[str, str] | None, extra: dict[str, str]) -> dict[str, str]:
        headers = {"X-Forwarded-Proto": "https", "Origin": self.origin, "Referer": self.origin}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers.update({k.replace("_", "-"): v for k, v in extra.items()})
        return headers

    def read(self, response: http.client.HTTPResponse) -> tuple[int, dict[str, str], str]:
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        text = response.read().decode()
        return response.status, dict(response.headers.items()), text

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, **headers)

    def login(self, username: str, password: str) -> None:
        status, _, page = self.get("/accounts/login/")
        assert status == 200
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token
        form = {"csrfmiddlewaretoken": token[1], "login": username, "password": password}
        status, headers, _ = self.request("POST", "/accounts/login/", form)
        assert status == 302, "login refused"
        assert headers["Location"].endswith("/desk/")


def demo_sjoelen(database_url: str) -> tuple[str, list[tuple[int, int]]]:
    """The demo sjoelen competition's desk prefix, and (entry id, next game) of two players."""
    with psycopg.connect(database_url) as conn:
        event, competition, competition_id = conn.execute(
            "SELECT e.slug, c.slug, c.id FROM events_competition c "
            "JOIN events_event e ON e.id = c.event_id WHERE c.format = 'shuffleboard'"
        ).fetchone()
        rows = conn.execute(
            "SELECT en.id, COALESCE(MAX(t.number), 0) + 1 FROM events_entry en "
            "LEFT JOIN shuffleboard_turn t ON t.entry_id = en.id "
            "WHERE en.competition_id = %s AND en.checked_in_at IS NOT NULL "
            "AND en.withdrawn_at IS NULL GROUP BY en.id ORDER BY 2, 1 LIMIT 2",
            [competition_id],
        ).fetchall()
    return f"/{event}/{competition}/", [(int(a), int(b)) for a, b in rows]


def turn_count(database_url: str, entry: int, number: int) -> int:
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM shuffleboard_turn WHERE entry_id = %s AND number = %s",
            [entry, number],
        ).fetchone()
    return int(row[0])


def listen_backlog_empty_and_accepted(port: int, client_port: int) -> bool:
    """The kernel's view (/proc/net/tcp): our connection exists server-side and has been
    accept()ed by a worker (the listening socket's accept queue is empty)."""
    listening, connected = False, False
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].split(":")[1], 16)
        remote_port = int(fields[2].split(":")[1], 16)
        state, queue = fields[3], int(fields[4].split(":")[1], 16)
        if local_port == port and state == "0A":
            listening = queue == 0
        if local_port == port and remote_port == client_port and state == "01":
            connected = True
    return listening and connected


# --- the test ------------------------------------------------------------------------------


def test_make_serve_runs_gunicorn_and_stops_cleanly(served: Served) -> None:
    served.wait_for_line(r"serve: started gunicorn", timeout=START_TIMEOUT)
    served.wait_for_line(r"serve: started worker 1")
    served.wait_for_line(rf"Listening at: http://127\.0\.0\.1:{served.port}")
    browser = Browser(served.port)

    def ready() -> bool:
        try:
            for path in ("/readyz", "/healthz", "/"):  # /readyz (events/common/health.py) if there
                status = browser.get(path)[0]
                if status != 404:
                    return status == 200
        except OSError:
            return False
        return False

    wait_until(ready, "the server to be ready")

    # Production behaviour: plain HTTP is sent to HTTPS; static files come from whitenoise.
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=STEP_TIMEOUT)
    conn.request("GET", "/")
    plain = conn.getresponse()
    assert plain.status == 301 and plain.headers["Location"].startswith("https://")
    conn.close()
    status, headers, _ = browser.get("/static/css/site.css")
    assert status == 200 and "text/css" in headers["Content-Type"]

    # The demo (organiser login and a sjoelen competition), loaded as `make run` does.
    subprocess.run(
        [sys.executable, "manage.py", "load_demo", "-v0"],
        cwd=ROOT,
        env={**served.env, "DEBUG": "1"},
        check=True,
        timeout=STEP_TIMEOUT * 10,  # a loaded CI machine
    )
    prefix, [(first, first_game), (second, second_game)] = demo_sjoelen(served.env["DATABASE_URL"])

    # A public page, and its ETag.
    status, headers, page = browser.get(f"/e{prefix}")
    assert status == 200 and "ETag" in headers
    etag = headers["ETag"]
    assert browser.get(f"/e{prefix}", If_None_Match=etag)[0] == 304

    # The desk after logging in.
    browser.login("organiser", "desk-demo-2026")
    status, _, page = browser.get("/desk/")
    assert status == 200 and "Address for phones" in page
    status, _, page = browser.get(f"/desk{prefix}sjoelen/")
    assert status == 200

    # A result, as the desk's htmx form sends it.
    save = f"/desk{prefix}sjoelen/save/"
    csrf = browser.cookies["csrftoken"]
    result = {"entry": str(first), "number": str(first_game)}
    result.update({"gate2": "5", "gate3": "6", "gate4": "7", "gate1": "8"})
    status, _, page = browser.request("POST", save, result, HX_Request="true", X_CSRFToken=csrf)
    assert status == 200 and "Saved" in page
    status, headers, _ = browser.get(f"/e{prefix}", If_None_Match=etag)
    assert status == 200 and headers["ETag"] != etag

    # SIGTERM with a request in flight: its headers and half its body are in, a worker has
    # accepted it; gunicorn gets the signal; the rest of the body follows; it completes.
    second_result = {"entry": str(second), "number": str(second_game), "gate2": "1"}
    second_result.update({"gate3": "2", "gate4": "3", "gate1": "4"})
    body = urlencode(second_result).encode()
    headers = browser.headers(second_result, {"HX-Request": "true", "X-CSRFToken": csrf})
    headers["Content-Length"] = str(len(body))
    slow = socket.create_connection(("127.0.0.1", served.port), timeout=STEP_TIMEOUT)
    try:
        head = f"POST {save} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        slow.sendall(head.encode() + body[:10])
        client_port = slow.getsockname()[1]
        wait_until(
            lambda: listen_backlog_empty_and_accepted(served.port, client_port),
            "a worker to accept the slow request",
        )
        served.process.send_signal(signal.SIGTERM)
        served.wait_for_line(r"Handling signal: term")
        slow.sendall(body[10:])
        answer = b""
        while chunk := slow.recv(65536):
            answer += chunk
    finally:
        slow.close()
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert b"Saved" in answer
    assert turn_count(served.env["DATABASE_URL"], second, second_game) == 1

    # Both children stopped, serve exits 0; nothing listens any more.
    assert served.process.wait(timeout=STEP_TIMEOUT * 2) == 0, served.log
    served.wait_for_line(r"serve: stopped \(cleanly\)")
    assert not _accepts(served.port)
