"""``make serve`` (``python -m config.serve``): what production runs, in one command.

1. Refuses, in one line, to start with DEBUG on or without what production needs (SECRET_KEY,
   a PostgreSQL DATABASE_URL, SITE_URL, EMAIL_BACKEND); then loads the settings the same way.
2. ``migrate``, ``collectstatic``, ``check --deploy`` (errors stop it, warnings are shown).
3. Starts gunicorn (``-c python:config.gunicorn config.wsgi``: workers from the core count,
   whitenoise serving the static files, private links redacted from the access log) and
   ``TASK_WORKERS`` background workers (``manage.py worker``, 2 unless set) beside it.
4. SIGTERM (or Ctrl-C) is passed on to all as SIGTERM: gunicorn stops accepting, lets the
   requests in flight finish (up to its graceful timeout), a worker ends after the job in hand;
   exits 0 when all did. If one dies on its own, the others are stopped and it exits 1, so a
   supervisor restarts the set.

gunicorn options (bind address, workers) come from ``GUNICORN_CMD_ARGS`` or ``WEB_CONCURRENCY``;
by default it listens on 127.0.0.1:8000, behind the TLS proxy (docs/deploy.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

TASK_WORKERS = 2  # background workers beside gunicorn, unless TASK_WORKERS says otherwise
TRUE, FALSE = ("1", "true", "on"), ("", "0", "false", "off")


def refusal(environ: Mapping[str, str]) -> str | None:
    """Why production must not start with this environment (one line), or None."""
    debug = environ.get("DEBUG", "").lower()
    if debug in TRUE:
        return (
            "DEBUG is on: production never runs with DEBUG (it shows settings and tracebacks "
            "to anyone); unset DEBUG."
        )
    if debug not in FALSE:
        return f"DEBUG must be 0 or unset, not {environ['DEBUG']!r}."
    key_file = environ.get("SECRET_KEY_FILE", "")
    if key_file:
        try:
            key = Path(key_file).read_text().strip()
        except OSError as exc:
            return f"SECRET_KEY_FILE {key_file} cannot be read: {exc.strerror}."
    else:
        key = environ.get("SECRET_KEY", "")
    if not key:
        return (
            "SECRET_KEY (or SECRET_KEY_FILE) is required: it signs sessions and private-link "
            "cookies; make one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    if len(key) < 32:
        return "SECRET_KEY is too short (fewer than 32 characters): make a long random one."
    database = environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        return (
            "DATABASE_URL must point at PostgreSQL (postgres://user:password@host:5432/name); "
            "SQLite is for make run."
        )
    if not environ.get("SITE_URL"):
        return (
            "SITE_URL is required: the public address every QR code and e-mail link is built "
            "from (e.g. https://events.example.org)."
        )
    if not environ.get("EMAIL_BACKEND"):
        return (
            "EMAIL_BACKEND is required: django.core.mail.backends.smtp.EmailBackend with "
            "EMAIL_HOST and friends (docs/deploy.md, Configuration)."
        )
    return None


def prepare() -> None:
    """Load the settings (a bad value: one line), migrate, collect static files, check."""
    import django
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError
    from django.db import connections

    try:
        django.setup()
    except ImproperlyConfigured as exc:
        sys.exit(f"serve: refused: {exc}")
    call_command("migrate", interactive=False, verbosity=1)
    call_command("collectstatic", interactive=False, verbosity=0)
    try:
        call_command("check", deploy=True, fail_level="ERROR")
    except SystemCheckError as exc:
        sys.exit(f"serve: refused: {exc}")
    connections.close_all()


def commands() -> dict[str, list[str]]:
    python = sys.executable
    workers = int(os.environ.get("TASK_WORKERS", "") or TASK_WORKERS)
    return {
        "gunicorn": [python, "-m", "gunicorn", "-c", "python:config.gunicorn", "config.wsgi"],
        **{
            f"worker {number}": [python, "-m", "django", "worker", "-v0"]
            for number in range(1, workers + 1)
        },
    }


class Supervisor:
    """The children, by pid; SIGTERM/SIGINT to this process become SIGTERM to each of them."""

    def __init__(self) -> None:
        self.children: dict[int, str] = {}
        self.stopping = False
        self.failed = False
        signal.signal(signal.SIGTERM, self.on_signal)
        signal.signal(signal.SIGINT, self.on_signal)

    def stop_all(self) -> None:
        for pid in list(self.children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def on_signal(self, signum: int, frame: object) -> None:
        if not self.stopping:
            name = signal.Signals(signum).name
            print(f"serve: {name}, stopping gunicorn and the workers", flush=True)
        self.stopping = True
        self.stop_all()

    def start(self, name: str, argv: list[str]) -> None:
        if self.stopping:
            return
        process = subprocess.Popen(argv)
        self.children[process.pid] = name
        print(f"serve: started {name} (pid {process.pid})", flush=True)
        if self.stopping:  # a signal came while it started
            self.stop_all()

    def wait(self) -> int:
        """Until every child is gone: 0 if all stopped cleanly when asked, else 1."""
        while self.children:
            try:
                pid, status = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            name = self.children.pop(pid, None)
            if name is None:
                continue
            code = os.waitstatus_to_exitcode(status)
            if not self.stopping:
                print(f"serve: {name} exited on its own ({code}); stopping the rest", flush=True)
                self.failed = self.stopping = True
                self.stop_all()
            elif code != 0:
                print(f"serve: {name} exited with {code}", flush=True)
                self.failed = True
        return 1 if self.failed else 0


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    reason = refusal(os.environ)
    if reason:
        sys.exit(f"serve: refused: {reason}")
    if not os.environ.get("REDIS_URL"):
        print("serve: REDIS_URL is not set: each process caches alone (fine for one server)")
    prepare()
    supervisor = Supervisor()
    for name, argv in commands().items():
        supervisor.start(name, argv)
    code = supervisor.wait()
    print(f"serve: stopped ({'cleanly' if code == 0 else 'with errors'})", flush=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
