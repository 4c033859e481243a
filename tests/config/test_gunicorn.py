"""gunicorn's settings (``config/gunicorn.py``), read as gunicorn reads them, in a process of their
own (the file patches gunicorn's responses): no ``Server`` line, the workers from
WEB_CONCURRENCY or the cores, the key links redacted from the access log, a frozen heap after the
app is loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, os
from types import SimpleNamespace
import django
django.setup()
import config.gunicorn as g
from gunicorn.http import wsgi
from config.logfilters import RedactPrivateLinks
import logging
response = SimpleNamespace(
    upgrade=False, should_close=lambda: False, chunked=True, version="gunicorn/1",
    req=SimpleNamespace(version=(1, 1)), status="200 OK",
)
headers = wsgi.Response.default_headers(response)
server_filters = logging.getLogger("django.server").filters
before = gc.get_freeze_count()
g.post_worker_init(None)
print(json.dumps({
    "workers": g.workers,
    "cores": len(os.sched_getaffinity(0)),
    "accesslog": g.accesslog,
    "headers": [h.split(":")[0] for h in headers],
    "redacting": any(isinstance(f, RedactPrivateLinks) for f in server_filters),
    "frozen": gc.get_freeze_count() > before,
}))
"""


def probe(**env: str) -> dict:
    keep = {k: v for k, v in os.environ.items() if k != "WEB_CONCURRENCY"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**keep, "DJANGO_SETTINGS_MODULE": "config.test_settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_responses_carry_no_server_line_and_the_heap_is_frozen_once_loaded():
    found = probe(WEB_CONCURRENCY="5")
    assert found["headers"] == ["HTTP/1.1 200 OK\r\n", "Date", "Connection", "Transfer-Encoding"]
    assert found["accesslog"] == "-" and found["redacting"]
    assert found["frozen"]
    assert found["workers"] == 5


def test_without_web_concurrency_the_workers_are_twice_the_cores_and_one():
    found = probe()
    assert found["workers"] == 2 * found["cores"] + 1
