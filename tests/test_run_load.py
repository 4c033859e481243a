"""`make run` holds a room's sign-up rush: 60 people send the sign-up form at the same moment.

scripts/run.py starts what `make run` starts (the threaded development server with DEBUG=1,
a background worker beside it) on the suite's database: PostgreSQL when DATABASE_URL is set,
else a SQLite file copied from the suite's test database (the schema already migrated, which
saves the half minute `make run`'s migrate and demo would cost here). 60 clients, each from a
loopback address of its own as phones on the venue network are (the sign-up limit counts per
address), open the sign-up page, wait at a barrier, then post the form together. Every answer
is a sign-up ("Check your e-mail", no 500), the database holds 60 sign-ups with exactly the
window's cap of them holding a seat, and 60 e-mails with the person's link are queued.

On PostgreSQL a thread samples pg_stat_activity while the rush runs: the server's connections
(named by ``application_name``) stay within its pool's bound, plus the worker's two (its job
loop and its heartbeat). Without the pool, every request in flight held a connection of its
own, and a room's rush ran PostgreSQL out of connections ("too many clients", answered 500);
without the deeper listen queue (config/devserver.py), connections past runserver's 10 waiting
ones were reset.
"""

from __future__ import annotations

import datetime as dt
import http.client
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import psycopg
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from events.outbox.models import OutboxMessage
from events.signups.models import SignUp
from events.signups.services import lifecycle as signups
from scripts.run import DB_POOL_MAX
from tests.support.servers import ROOT, free_port

PEOPLE = 60
CAP = 50  # fewer seats than people: the seat holds must not oversell under the rush
APPLICATION = "make-run-load"
START_TIMEOUT = 60.0
REQUEST_TIMEOUT = 60.0
# Settings the suite sets for itself (config.test_settings) that `make run` does not have.
NOT_MAKE_RUN = {
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "SECRET_KEY",
    "SECURE_SSL_REDIRECT",
    "EMAIL_BACKEND",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SITE_URL",
    "DATABASE_URL",
    "CONN_MAX_AGE",
    "DB_POOL_MAX",
    "REDIS_URL",
    "CACHE_KEY_PREFIX",
}


def wait_until(condition: Callable[[], object], what: str, timeout: float) -> object:
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
    return value


@dataclass
class Answer:
    status: int = 0
    body: str = ""
    seconds: float = 0.0
    error: str = ""


@dataclass
class Phone:
    """One person's phone: its own address on the network, its cookies."""

    port: int
    address: str
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, data: dict[str, str] | None = None) -> Answer:
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://127.0.0.1:{self.port}"
        began = time.monotonic()
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=REQUEST_TIMEOUT, source_address=(self.address, 0)
        )
        try:
            conn.request(method, path, body=body, headers=headers)
            raw = conn.getresponse()
            text = raw.read().decode()
        except OSError as exc:
            return Answer(error=repr(exc), seconds=time.monotonic() - began)
        finally:
            conn.close()
        for header in raw.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return Answer(raw.status, text, time.monotonic() - began)


def _sign_up(phone: Phone, path: str, n: int, competition_id: int, barrier: threading.Barrier):
    page = phone.request("GET", path)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.body)
    barrier.wait(timeout=REQUEST_TIMEOUT)  # every phone has its form: all send at once
    if page.status != 200 or token is None:
        return Answer(page.status, page.body, page.seconds, page.error or "no form")
    form = {
        "name": f"Rush Person {n}",
        "email": f"rush{n}@example.org",
        "club": "",
        "rating": "",
        "language": "en",
        "competitions": [str(competition_id)],
        "consent": "on",
        "website": "",
        "csrfmiddlewaretoken": token.group(1),
    }
    return phone.request("POST", path, form)


class ConnectionSampler(threading.Thread):
    """The most connections the app's processes held at once in PostgreSQL, sampled."""

    def __init__(self, admin_url: str, database: str) -> None:
        super().__init__(daemon=True)
        self.admin_url, self.database = admin_url, database
        self.peak = 0
        self.samples = 0
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                while not self.stop.is_set():
                    row = conn.execute(
                        "SELECT count(*) FROM pg_stat_activity "
                        "WHERE datname = %s AND application_name = %s",
                        (self.database, APPLICATION),
                    ).fetchone()
                    self.peak = max(self.peak, row[0] if row else 0)
                    self.samples += 1
                    self.stop.wait(0.01)
        except BaseException as exc:  # reported by the test, not lost in this thread
            self.failure = exc


@contextmanager
def make_run(env: dict[str, str]) -> Iterator[tuple[int, Path]]:
    """scripts/run.py on a free port; yields the port and its log once /healthz answers."""
    port = free_port()
    env = {**env, "HOST": "127.0.0.1", "PORT": str(port), "PYTHONUNBUFFERED": "1"}
    log = Path(tempfile.mkstemp(prefix="make-run-", suffix=".log")[1])
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "scripts/run.py"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:

        def up() -> bool:
            assert server.poll() is None, "make run stopped:\n" + log.read_text()
            try:
                return Phone(port, "127.0.0.1").request("GET", "/healthz").status == 200
            except (OSError, http.client.HTTPException):
                # Before the server listens, a connection to a free port in the ephemeral range
                # now and then meets itself (TCP's simultaneous open) and reads its own request
                # back: not up yet either.
                return False

        wait_until(up, "the development server", START_TIMEOUT)
        yield port, log
    finally:
        # SIGTERM to the group: scripts/run.py stops its worker (a session of its own),
        # and runserver's reloaded child goes with its parent.
        try:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.unlink(missing_ok=True)


def _postgres_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def _count(sql: str, params: tuple[object, ...], *, url: str, sqlite_file: Path | None) -> int:
    """A count in the database the server wrote to (the SQLite copy is not the suite's)."""
    if sqlite_file is not None:
        with sqlite3.connect(sqlite_file) as db:
            return int(db.execute(sql.replace("%s", "?"), params).fetchone()[0])
    with psycopg.connect(url) as db:
        row = db.execute(sql, params).fetchone()
        return int(row[0]) if row else 0


def test_sixty_people_sign_up_at_once_on_make_run(transactional_db, competition, tmp_path):
    now = timezone.now()
    window = signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=7),
        cap=CAP,
    )
    env = {k: v for k, v in os.environ.items() if k not in NOT_MAKE_RUN}
    env.update({"DEBUG": "1", "VAR_DIR": str(tmp_path)})
    sampler: ConnectionSampler | None = None
    sqlite_file: Path | None = None
    url = ""
    if connection.vendor == "postgresql":
        url = _postgres_url()
        parts = urlsplit(url)
        env["DATABASE_URL"] = urlunsplit(parts._replace(query=f"application_name={APPLICATION}"))
        sampler = ConnectionSampler(
            urlunsplit(parts._replace(path="/postgres")), parts.path.lstrip("/")
        )
    else:
        # make run's own database file (VAR_DIR/db.sqlite3), a copy of the suite's.
        sqlite_file = tmp_path / "db.sqlite3"
        connection.ensure_connection()
        with sqlite3.connect(sqlite_file) as copy:
            connection.connection.backup(copy)

    path = reverse("events:signup", args=[competition.event.slug])
    barrier = threading.Barrier(PEOPLE)
    answers: list[Answer] = [Answer() for _ in range(PEOPLE)]

    def person(n: int) -> None:
        # 127.0.0.2 and on: every loopback address is this machine's.
        phone = Phone(port, f"127.0.{(n + 2) // 256}.{(n + 2) % 256}")
        try:
            answers[n] = _sign_up(phone, path, n, competition.pk, barrier)
        except threading.BrokenBarrierError as exc:
            answers[n] = Answer(error=repr(exc))

    with make_run(env) as (port, log):
        if sampler:
            sampler.start()
        began = time.monotonic()
        people = [threading.Thread(target=person, args=(n,)) for n in range(PEOPLE)]
        for thread in people:
            thread.start()
        for thread in people:
            thread.join(timeout=2 * REQUEST_TIMEOUT)
        took = time.monotonic() - began
        if sampler:
            sampler.stop.set()
            sampler.join(timeout=10)
        # The server's errors, without the e-mails the console backend prints.
        server_errors = [
            line for line in log.read_text(errors="replace").splitlines() if "Error" in line
        ]

    statuses = sorted(a.status for a in answers)
    slowest = max(a.seconds for a in answers)
    report = (
        f"{PEOPLE} sign-ups in {took:.1f} s (slowest answer {slowest:.1f} s); "
        f"statuses {statuses}; errors {[a.error for a in answers if a.error][:3]}"
    )
    if sampler:
        report += f"; PostgreSQL connections at most {sampler.peak} ({sampler.samples} samples)"
    print(report)
    failed = [a for a in answers if a.status >= 500 or a.error]
    assert not failed, report + "\n" + "\n".join(dict.fromkeys(server_errors))
    assert all(a.status == 200 and "Check your e-mail" in a.body for a in answers), report

    signup_table = SignUp._meta.db_table
    outbox_table = OutboxMessage._meta.db_table
    to = OutboxMessage._meta.get_field("to").column
    where = {"url": url, "sqlite_file": sqlite_file}
    assert (
        _count(f"SELECT count(*) FROM {signup_table} WHERE window_id = %s", (window.pk,), **where)
        == PEOPLE
    )
    held = _count(
        f"SELECT count(*) FROM {signup_table} WHERE window_id = %s AND hold_until IS NOT NULL",
        (window.pk,),
        **where,
    )
    assert held == CAP
    mails = _count(
        f'SELECT count(*) FROM {outbox_table} WHERE "{to}" LIKE %s', ("rush%@example.org",), **where
    )
    assert mails == PEOPLE

    if sampler:
        assert sampler.failure is None, sampler.failure
        assert sampler.samples > 0
        # The server's pool, and the worker's two (its job loop, its heartbeat).
        assert sampler.peak <= DB_POOL_MAX + 2, (
            f"{sampler.peak} connections at once for a pool of {DB_POOL_MAX}"
        )
