"""What ``make bench`` (``bench/run.py``) stands on: the scratch PostgreSQL database, Redis,
gunicorn and wrk, started (or installed) here and stopped again in ``Services.close``."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def log(message: str) -> None:
    print(f"-- {message}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    log("installing wrk (Debian package)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    quiet = {"env": env, "stdout": subprocess.DEVNULL}
    if subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], **quiet).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], check=True, **quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, **quiet)
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("wrk is not installed and apt-get could not install it")
    return found


class Services:
    """The scratch database, Redis and gunicorn this run starts, stopped in ``close``."""

    def __init__(self, postgres: str, redis_url: str) -> None:
        self.postgres = postgres
        self.database = f"bench_{os.getpid()}_{secrets.token_hex(3)}"
        self.redis_process: subprocess.Popen[bytes] | None = None
        self.gunicorn: subprocess.Popen[bytes] | None = None
        self.redis_url = redis_url
        self.var = Path(tempfile.mkdtemp(prefix="bench-var-"))

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(f"{self.postgres}/postgres", autocommit=True) as conn:
            conn.execute(sql)

    def production_env(self, database_url: str, **extra: str) -> dict[str, str]:
        """This process's environment with production's settings on the scratch database and
        Redis (DEBUG off, a fresh SECRET_KEY, no HTTPS redirect on loopback), and ``extra``."""
        return {
            **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": database_url,
            "REDIS_URL": self.redis_url,
            "VAR_DIR": str(self.var),
            "SECURE_SSL_REDIRECT": "0",
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "LOG_LEVEL": "WARNING",
            **extra,
        }

    def create_database(self) -> str:
        self.admin(f'CREATE DATABASE "{self.database}"')
        return f"{self.postgres}/{self.database}"

    def start_redis(self) -> None:
        import redis

        try:
            redis.Redis.from_url(self.redis_url, socket_connect_timeout=1).ping()
        except redis.exceptions.ConnectionError:
            server = shutil.which("redis-server")
            if not server:
                raise SystemExit(f"Redis does not answer at {self.redis_url}") from None
            port = free_port()
            log(f"no Redis at {self.redis_url}: starting redis-server on port {port}")
            self.redis_process = subprocess.Popen(
                [server, "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
                stdout=subprocess.DEVNULL,
            )
            self.redis_url = f"redis://127.0.0.1:{port}/0"
            for _ in range(50):
                try:
                    redis.Redis.from_url(self.redis_url).ping()
                    break
                except redis.exceptions.ConnectionError:
                    time.sleep(0.1)
        redis.Redis.from_url(self.redis_url).flushdb()

    def start_gunicorn(self, env: dict[str, str], port: int, workers: int | None = 2) -> None:
        """gunicorn with ``workers`` sync workers (None: as production, config.gunicorn's)."""
        logfile = (self.var / "gunicorn.log").open("wb")
        self.gunicorn = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "-c",
                "python:config.gunicorn",
                "config.wsgi",
                *(["--workers", str(workers)] if workers else []),
                "--bind",
                f"127.0.0.1:{port}",
            ],
            cwd=ROOT,
            env=env,
            stdout=logfile,
            stderr=subprocess.STDOUT,
        )

    def close(self) -> None:
        if self.gunicorn is not None:
            self.gunicorn.terminate()
            self.gunicorn.wait(timeout=30)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django never set up: nothing to close
            pass
        try:
            import redis

            redis.Redis.from_url(self.redis_url).flushdb()
        except Exception as error:  # the bench's own Redis database; report, go on
            log(f"could not flush {self.redis_url}: {error}")
        if self.redis_process is not None:
            self.redis_process.terminate()
            self.redis_process.wait(timeout=10)
        try:
            self.admin(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        except Exception as error:
            log(f"could not drop the scratch database {self.database}: {error}")
        shutil.rmtree(self.var, ignore_errors=True)
