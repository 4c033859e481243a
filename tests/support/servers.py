"""Real app servers for tests: gunicorn processes on loopback, started and always stopped.

    with gunicorn_server(port, env) as base_url:
        urlopen(f"{base_url}/healthz")

``env`` is laid over this process's environment (``production_env`` builds a production-like
one: ``config.settings``, DEBUG off, the HTTPS redirect on, PostgreSQL and Redis as given).
The server is up when ``/healthz`` answers 200; it is stopped (SIGTERM, then SIGKILL) when the
block ends, whatever happens inside it. Its output goes to a log file, shown when it fails to
start. :class:`HttpClient` speaks plain HTTP with cookies and CSRF, as a browser behind an
HTTPS proxy would (``X-Forwarded-Proto: https``).
"""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[2]  # the repository
START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0
POLL_EVERY = 0.05  # seconds between two looks at /healthz while a server starts


def redis_up(host: str = "127.0.0.1", port: int = 6379) -> bool:
    """Whether a Redis answers there (the tests that need one are skipped otherwise)."""
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def production_env(
    *, database_url: str, redis_url: str, key_prefix: str, var_dir: str
) -> dict[str, str]:
    """The settings a production server runs with, pointed at this test's database and Redis;
    ``var_dir`` receives the collected static files (:func:`collect_static`)."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "two-servers-test-secret-key-not-for-production",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CACHE_KEY_PREFIX": key_prefix,
        "SECURE_SSL_REDIRECT": "1",
        "CONN_MAX_AGE": "60",
        "VAR_DIR": var_dir,
    }


def collect_static(env: Mapping[str, str]) -> None:
    """``collectstatic`` into ``env["VAR_DIR"]``, as a deployment does before starting servers
    (production settings serve hashed, compressed files from there)."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        timeout=300,
    )


def _get(base_url: str, path: str, timeout: float = 2.0) -> int:
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


@contextmanager
def gunicorn_server(port: int, env: Mapping[str, str], *, workers: int = 2) -> Iterator[str]:
    """A gunicorn serving the app on 127.0.0.1:``port``; yields its base URL once /healthz
    answers, and stops it when the block ends."""
    base_url = f"http://127.0.0.1:{port}"
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in the finally below)
        prefix=f"gunicorn-{port}-", suffix=".log", delete=False
    )
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        "python:config.gunicorn",
        "config.wsgi",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{port}",
        "--graceful-timeout",
        "5",
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        _wait_healthy(process, base_url, f"gunicorn on port {port}", lambda: _tail(log.name))
        yield base_url
    finally:
        _stop(process)
        log.close()
        Path(log.name).unlink(missing_ok=True)


def _wait_healthy(
    process: subprocess.Popen[bytes], base_url: str, name: str, output: Callable[[], str]
) -> None:
    """Until ``base_url``/healthz answers 200; the process's ``output`` in the error when it
    exits or does not answer within START_TIMEOUT."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited:\n{output()}")
        try:
            if _get(base_url, "/healthz") == 200:
                return
        except (OSError, http.client.HTTPException):
            pass  # not listening yet (a connection may even meet itself and read its own request)
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not start:\n{output()}")
        time.sleep(POLL_EVERY)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the workers go too
        process.wait(timeout=STOP_TIMEOUT)


def _tail(path: str, lines: int = 40) -> str:
    return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: str


@dataclass
class HttpClient:
    """A browser's share of HTTP: cookies, the CSRF token of the last page, behind HTTPS."""

    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self,
        method: str,
        path: str,
        *,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        parts = urlsplit(self.base_url)
        origin = f"https://{parts.netloc}"
        sent = {"X-Forwarded-Proto": "https", "Host": parts.netloc, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent.update({"Origin": origin, "Referer": origin + path})
        conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=sent)
            raw = conn.getresponse()
            text = raw.read().decode()
            for header in raw.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, text)
        finally:
            conn.close()

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> Response:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: Mapping[str, str]) -> Response:
        return self.request("POST", path, data=data)

    def login(self, username: str, password: str) -> None:
        page = self.get("/accounts/login/")
        token = csrf_token(page.body)
        answer = self.post(
            "/accounts/login/",
            {"login": username, "password": password, "csrfmiddlewaretoken": token},
        )
        if answer.status != 302:
            raise AssertionError(f"login failed: {answer.status}\n{answer.body[:2000]}")


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    if not found:
        raise AssertionError("no CSRF token in the page")
    return found.group(1)


NGINX = "/usr/sbin/nginx"
CACHE_PATH = "/var/cache/nginx/tabletop"  # in deploy/nginx/tabletop-cache.conf


def nginx_available() -> bool:
    return Path(NGINX).exists()


@contextmanager
def nginx_cache(
    port: int, upstreams: list[str], directory: Path, *, workers: int = 1
) -> Iterator[str]:
    """nginx on 127.0.0.1:``port`` with the shipped cache (``deploy/nginx/``) in front of
    ``upstreams`` (base URLs); yields its base URL once it answers /healthz. Its access log,
    ``directory / "access.log"``, has one line per request: status, ``$upstream_cache_status``,
    the request's path, the seconds it took, the language of the key, the time (Unix seconds)
    and the ETag sent."""
    deploy = ROOT / "deploy" / "nginx"
    cache_dir = directory / "cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    cache_conf = directory / "tabletop-cache.conf"
    shipped = (deploy / "tabletop-cache.conf").read_text()
    if CACHE_PATH not in shipped:
        raise AssertionError(f"{CACHE_PATH} not in the shipped tabletop-cache.conf")
    cache_conf.write_text(shipped.replace(CACHE_PATH, str(cache_dir)))
    servers = "\n".join(f"        server {urlsplit(u).netloc} fail_timeout=0;" for u in upstreams)
    temp = {name: directory / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    conf = directory / "nginx.conf"
    conf.write_text(
        "\n".join(
            [
                # root runs nginx's workers as nobody, who could not write the cache here
                "user root;" if os.geteuid() == 0 else "",
                "daemon off;",
                f"worker_processes {workers};",
                f"pid {directory / 'nginx.pid'};",
                f"error_log {directory / 'error.log'} warn;",
                "events { worker_connections 4096; }",
                "http {",
                f"    client_body_temp_path {temp['body']};",
                f"    proxy_temp_path {temp['proxy']};",
                f"    fastcgi_temp_path {temp['fastcgi']};",
                f"    uwsgi_temp_path {temp['uwsgi']};",
                f"    scgi_temp_path {temp['scgi']};",
                "    log_format cache '$status $upstream_cache_status $request_uri "
                "$request_time $tabletop_language $msec $sent_http_etag';",
                f"    access_log {directory / 'access.log'} cache;",
                "    log_subrequest on;  # the cache's background updates are requests too",
                f"    include {cache_conf};",
                "    upstream tabletop {",
                servers,
                "        keepalive 16;",
                "    }",
                "    server {",
                f"        listen 127.0.0.1:{port};",
                "        location / {",
                f"            include {deploy / 'tabletop-proxy.conf'};",
                "        }",
                "    }",
                "}",
            ]
        )
    )
    log = directory / "nginx.out"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [NGINX, "-c", str(conf), "-p", str(directory)],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(
            process, base_url, "nginx", lambda: f"{_tail(str(log))}\n{_errors(directory)}"
        )
        yield base_url
    finally:
        _stop(process)


def _errors(directory: Path) -> str:
    path = directory / "error.log"
    return _tail(str(path)) if path.exists() else ""


DEAD_REDIS = {
    "default": {
        "BACKEND": "events.common.cache.OptionalRedisCache",
        "LOCATION": "redis://127.0.0.1:6390/0",  # nothing listens there
    }
}
