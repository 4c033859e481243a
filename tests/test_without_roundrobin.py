"""An install without the round-robin app still sends and sweeps: the workers are the core's.

The site runs with ``roundrobin`` left out of ``INSTALLED_APPS`` (a settings module written
here), on a SQLite file of its own, migrated from scratch. A Blokus event has a sign-up whose
offer has run out and an e-mail in the outbox; ``manage.py worker --once`` (the core's command)
ends the offer (and tells her so) and sends the e-mail through the mail backend (files in a
folder), and the
periodic work it runs is the core's alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.servers import ROOT

pytestmark = [pytest.mark.server]

SETTINGS = """
from config.settings import *  # noqa: F403

INSTALLED_APPS = [app for app in INSTALLED_APPS if app != "roundrobin"]  # noqa: F405
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = {mail!r}
"""

WORLD = """
import datetime as dt
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from events.formats import all_formats
from events.management.worker import periodic_work
from events.outbox import queue
from events.services.events import competition_create, event_create
from events.signups.models import SignUp, SignUpStatus, SignUpWindow

assert "roundrobin" not in {f.key for f in all_formats()}
core = ("outbox:", "signups:", "tasks:", "clubs:")
assert not [name for name in periodic_work() if not name.startswith(core)]
now = timezone.now()
with transaction.atomic():
    organiser = User.objects.create(username="solo")
    event = event_create(name="No correspondence", starts_on=now.date(), ends_on=now.date(),
                         time_zone="Europe/Stockholm", organiser=organiser)
    competition = competition_create(event=event, name="Blokus", format="blokus")
    window = SignUpWindow.objects.create(
        competition=competition, cap=1,
        opens_at=now - dt.timedelta(days=1), closes_at=now + dt.timedelta(days=1),
    )
    SignUp.objects.create(window=window, name="Late Lotta", email="lotta@example.org",
                          status=SignUpStatus.OFFERED, confirmed_at=now - dt.timedelta(hours=1),
                          offer_until=now - dt.timedelta(minutes=1))
    queue.enqueue(key="solo:hello", to="player@example.org", subject="Your table", body="Table 4",
                  event=event)
print("world ready")
"""


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_without_the_round_robin_the_worker_sends_and_sweeps(tmp_path: Path):
    mail = tmp_path / "mail"
    (tmp_path / "solo_settings.py").write_text(SETTINGS.format(mail=str(mail)))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "solo_settings",
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'solo.sqlite3'}",
    }
    manage(env, "migrate", "--noinput", "-v0")
    assert "world ready" in manage(env, "shell", "-v0", "-c", textwrap.dedent(WORLD))
    out = manage(env, "worker", "--once", "-v1")
    assert "sign-ups: 1 offers ended" in out, out
    assert "round robin" not in out
    sent = [path.read_text() for path in mail.iterdir()]
    tables = [text for text in sent if "Subject: Your table" in text]
    assert len(tables) == 1 and "Message-ID: <" in tables[0]
    assert [text for text in sent if "To: lotta@example.org" in text]  # her offer ended
    check = manage(env, "shell", "-v0", "-c", CHECK)
    assert check.split() == ["sent", "expired"], check


CHECK = """
from events.outbox.models import OutboxMessage
from events.signups.models import SignUp
print(OutboxMessage.objects.get(key="solo:hello").status, SignUp.objects.get().status)
"""
