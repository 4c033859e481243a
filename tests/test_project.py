"""Project-level checks: production settings pass `check --deploy`, the demo loads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from events.models import Competition, Event

ROOT = Path(__file__).resolve().parents[1]


def test_production_settings_pass_check_deploy(tmp_path):
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in ("DEBUG", "SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE")
        },
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "x7" * 30 + "-a-long-random-production-secret",
        "ALLOWED_HOSTS": "events.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


def test_the_demo_refuses_to_load_without_debug(db):
    with pytest.raises(CommandError):
        call_command("load_demo")


def test_the_demo_loads_once(db, settings, capsys):
    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "Demo events loaded." in out and "already loaded" in out
    assert Event.objects.count() == 3
    assert set(Competition.objects.values_list("format", flat=True)) == {
        "blokus",
        "shuffleboard",
        "roundrobin",
    }


def test_every_static_file_a_template_names_exists():
    """Production serves static files from a manifest: a missing file is a 500 there."""
    import re

    from django.contrib.staticfiles import finders

    named = set()
    for template in (ROOT / "templates").rglob("*.html"):
        named |= set(re.findall(r"{%\s*static\s+['\"]([^'\"]+)['\"]", template.read_text()))
    assert named, "no template names a static file?"
    missing = sorted(path for path in named if not finders.find(path))
    assert not missing
