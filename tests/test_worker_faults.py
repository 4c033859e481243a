"""A worker killed mid-delivery (SIGKILL) loses nothing and sends nothing twice.

A real mail server stands in for the site's: a small SMTP server on a free port of this
machine. Worker A (``manage.py worker``, its own process on the test's PostgreSQL database)
takes the job of a queued e-mail and hands the message to the server, which holds its answer;
the test kills A then (``SIGKILL``: no cleanup, its job stays "running" and the message's lease
stays A's). Worker B starts, finds A silent past ``TASK_WORKER_STALE_SECONDS``, makes A's job
ready again, and sends the message: the server accepts it once, with the same ``Message-ID`` as
A's unanswered attempt (so a server that had kept that one would know the repeat).

PostgreSQL only: the workers are other processes and must see the test's committed rows.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from django.db import connection, transaction
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from events.outbox import queue
from events.outbox.models import OutboxMessage, OutboxStatus
from tests.support.servers import ROOT, free_port

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the workers are processes of their own: set DATABASE_URL=postgres://…",
    ),
]

WAIT = 90  # seconds, for anything the test waits for (a busy 2-core machine)


def wait_until(condition: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class MailServer:
    """Just enough SMTP for Django's backend. The first message's DATA is received and never
    answered (its sender is killed while it waits); every later one is accepted with 250. A
    message counts as delivered when its sender goes on after the 250 (QUIT, the next mail)."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held: list[bytes] = []  # received, never answered
        self.delivered: list[bytes] = []
        self.holding = threading.Event()
        self.stopped = False
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.talk, args=(client,), daemon=True).start()

    def talk(self, client: socket.socket) -> None:
        stream = client.makefile("rb")
        answered: bytes | None = None

        def say(line: str) -> None:
            client.sendall(line.encode() + b"\r\n")

        try:
            say("220 test mail server")
            for raw in stream:
                if answered is not None:  # the sender went on after our 250
                    self.delivered.append(answered)
                    answered = None
                command = raw.strip().upper()
                if command.startswith((b"EHLO", b"HELO")):
                    say("250 test")
                elif command == b"DATA":
                    say("354 go on")
                    body = b"".join(iter(stream.readline, b".\r\n"))
                    if not self.held:
                        self.held.append(body)
                        self.holding.set()
                        stream.read()  # no answer: until the sender's end closes
                        return
                    say("250 queued")
                    answered = body
                elif command == b"QUIT":
                    say("221 bye")
                    return
                else:
                    say("250 ok")
        except OSError:
            return
        finally:
            client.close()

    def close(self) -> None:
        self.stopped = True
        self.listener.close()


def message_id(body: bytes) -> bytes:
    return next(line for line in body.splitlines() if line.lower().startswith(b"message-id:"))


@pytest.fixture
def mail_server() -> Iterator[MailServer]:
    server = MailServer()
    yield server
    server.close()


def start_worker(name: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker", "-v0", f"--worker-id={name}"],
        cwd=ROOT,
        env={**os.environ, **env},
    )


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_delivery_loses_nothing_and_sends_nothing_twice(mail_server):
    db = connection.settings_dict
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
        "DATABASE_URL": (
            f"postgres://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}:"
            f"{db.get('PORT') or 5432}/{db['NAME']}"
        ),
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(mail_server.port),
        "EMAIL_TIMEOUT": "120",  # A waits for the held answer until it is killed
        "TASK_WORKER_BEAT_SECONDS": "1",
        "TASK_WORKER_STALE_SECONDS": "3",
        "PORT": str(free_port()),
    }
    with transaction.atomic():
        queue.enqueue(key="fault:killed", to="player@example.org", subject="Your table", body="4")
    message = OutboxMessage.objects.get(key="fault:killed")

    a = start_worker("worker-a", env)
    b = None
    try:
        wait_until(mail_server.holding.is_set, "worker A to hand the message to the server")
        os.kill(a.pid, signal.SIGKILL)
        a.wait(timeout=WAIT)
        job = DBTaskResult.objects.get(task_path__startswith="events.outbox.tasks.")
        assert job.status == TaskResultStatus.RUNNING and job.worker_ids == ["worker-a"]
        message.refresh_from_db()
        assert message.status == OutboxStatus.PENDING and not mail_server.delivered

        b = start_worker("worker-b", env)
        wait_until(
            lambda: OutboxMessage.objects.filter(pk=message.pk, status=OutboxStatus.SENT).exists(),
            "worker B to send the message",
        )
        wait_until(lambda: mail_server.delivered, "the server to count the delivery")
        assert len(mail_server.delivered) == 1
        assert message_id(mail_server.delivered[0]) == message_id(mail_server.held[0])
        # The worker marks its job done after the delivery returns: wait for it, not a race.
        wait_until(
            lambda: DBTaskResult.objects.filter(
                pk=job.pk, status=TaskResultStatus.SUCCESSFUL
            ).exists(),
            "worker B to finish the job",
        )
        job.refresh_from_db()
        assert job.status == TaskResultStatus.SUCCESSFUL and job.worker_ids == [
            "worker-a",
            "worker-b",
        ]
    finally:
        for worker in (a, b):
            if worker is not None and worker.poll() is None:
                worker.terminate()
                worker.wait(timeout=WAIT)
