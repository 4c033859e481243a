"""`make serve` (``config/serve.py``) refuses what production must not run with, in one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from config.serve import refusal

ROOT = Path(__file__).resolve().parents[2]


GOOD = {
    "SECRET_KEY": "x" * 50,
    "DATABASE_URL": "postgres://app@db:5432/events",
    "SITE_URL": "https://events.example.org",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"DEBUG": "1"}, "DEBUG is on"),
        ({"DEBUG": "maybe"}, "DEBUG must be 0"),
        ({"SECRET_KEY": ""}, "SECRET_KEY (or SECRET_KEY_FILE) is required"),
        ({"SECRET_KEY": "short"}, "SECRET_KEY is too short"),
        ({"SECRET_KEY_FILE": "/nonexistent/secret"}, "cannot be read"),
        ({"DATABASE_URL": "sqlite:///var/db.sqlite3"}, "DATABASE_URL must point at PostgreSQL"),
        ({"SITE_URL": ""}, "SITE_URL is required"),
        ({"EMAIL_BACKEND": ""}, "EMAIL_BACKEND is required"),
    ],
)
def test_serve_refuses_with_one_line(change, says):
    reason = refusal({**GOOD, **change})
    assert reason is not None and says in reason and "\n" not in reason


def test_serve_accepts_a_production_environment(tmp_path):
    assert refusal(GOOD) is None
    assert refusal({**GOOD, "DEBUG": "0"}) is None
    key = tmp_path / "secret"
    key.write_text("k" * 60 + "\n")
    assert refusal({**GOOD, "SECRET_KEY": "", "SECRET_KEY_FILE": str(key)}) is None


def test_make_serve_with_debug_on_exits_with_the_reason():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-m", "config.serve"],
        cwd=ROOT,
        env={**env, **GOOD, "DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert re.fullmatch(r"serve: refused: DEBUG is on: .*\n", result.stderr)
    assert result.stdout == ""
