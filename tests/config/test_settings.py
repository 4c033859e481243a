"""The settings (``config/settings.py``): production refuses what it must not run with, and the
hosts and trusted origins follow SITE_URL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_production_refuses_the_console_mail_backend_unless_chosen(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "EMAIL_BACKEND", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY="x" * 50,
        DATABASE_URL=f"sqlite:///{tmp_path / 'x.sqlite3'}",
    )
    run = [sys.executable, "manage.py", "check"]
    refused = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "EMAIL_BACKEND is required" in refused.stderr
    env["EMAIL_BACKEND"] = "django.core.mail.backends.console.EmailBackend"
    chosen = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True)
    assert chosen.returncode == 0, chosen.stderr


VENUE = "http://192.168.1.23:8000"


def settings_in_subprocess(**env: str) -> list[str]:
    """ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS as a fresh process reads them from ``env``."""
    code = (
        "from django.conf import settings;"
        "print(settings.ALLOWED_HOSTS); print(settings.CSRF_TRUSTED_ORIGINS)"
    )
    keep = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "ALLOWED_HOSTS")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**keep, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    return [result.returncode, result.stdout, result.stderr]


def test_allowed_hosts_and_trusted_origins_follow_site_url():
    code, out, _ = settings_in_subprocess(DEBUG="1", SITE_URL=VENUE)
    assert code == 0
    hosts, origins = out.splitlines()
    assert "'192.168.1.23'" in hosts and "'localhost'" in hosts
    assert f"'{VENUE}'" in origins
    code, out, _ = settings_in_subprocess(DEBUG="", SITE_URL="https://events.example.org")
    assert code == 0 and out.splitlines()[0] == "['events.example.org']"
    code, _, err = settings_in_subprocess(DEBUG="1", SITE_URL="events.example.org")
    assert code != 0 and "SITE_URL must be http(s)://host[:port]" in err
