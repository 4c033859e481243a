"""``python -m config.devserver`` (``config/devserver.py``), as ``make run`` starts it (DEBUG on):
runserver with gunicorn's listen queue instead of its own 10, and without its banner unless
asked."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.devserver import LISTEN_QUEUE
from tests.support.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
# Servers of its own: the pass that runs them one at a time (timing on a 2-core machine).
pytestmark = pytest.mark.server


def start(port: int, **env: str) -> subprocess.Popen:
    keep = {k: v for k, v in os.environ.items() if k != "RUNSERVER_BANNER"}
    return subprocess.Popen(
        [sys.executable, "-m", "config.devserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env={**keep, "DJANGO_SETTINGS_MODULE": "config.test_settings", "DEBUG": "1", **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for(port: int, server: subprocess.Popen) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read() if server.stderr else ""
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            return conn.getresponse().status
        except OSError:
            time.sleep(0.1)
    pytest.fail("the development server did not answer")


def stop(server: subprocess.Popen) -> str:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
    out, _err = server.communicate(timeout=30)
    return out


def test_the_server_listens_with_a_deep_queue_and_prints_no_banner():
    port = free_port()
    server = start(port)
    try:
        assert wait_for(port, server) == 200
        listing = subprocess.run(
            ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True
        ).stdout
        backlog = int(re.split(r"\s+", listing.strip())[2])  # Send-Q of a listener: its backlog
        cap = int(Path("/proc/sys/net/core/somaxconn").read_text())
        assert backlog == min(LISTEN_QUEUE, cap) and backlog > 10
    finally:
        out = stop(server)
    assert "Starting development server" not in out


def test_the_banner_comes_back_when_asked():
    port = free_port()
    server = start(port, RUNSERVER_BANNER="1")
    try:
        wait_for(port, server)
    finally:
        out = stop(server)
    assert f"Starting development server at http://127.0.0.1:{port}/" in out
