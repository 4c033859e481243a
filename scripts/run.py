"""``make run``: the development server, on this computer or for the venue's network.

    HOST=127.0.0.1 (default)  http://127.0.0.1:PORT/, this computer only, as always.
    HOST=0.0.0.0              every interface: phones on the venue network open the laptop's
                              LAN address, printed here with a QR code (and on the desk, /desk/).

Every absolute link (QR codes, table cards, e-mails) is built from one base, ``SITE_URL``
(events/common/siteurl.py). Unless it is set already, this sets it for the server process: the LAN
address in venue mode, ``http://127.0.0.1:PORT`` otherwise; its host is then allowed
(config/settings.py). Expects DEBUG=1, migrations and the demo done (the Makefile does it).
Runs a background worker (``manage.py worker``: the outbox, jobs at their instant, periodic
work) beside the server and stops it with the server. The server (runserver, a thread per
request, through ``config.devserver`` for a deeper listen queue) borrows its PostgreSQL
connections from a pool of ``DB_POOL_MAX`` (10 unless set), so that a room's rush waits for
connections rather than runs PostgreSQL out of them. Browser push gets a development key pair
of its own (``dev_push_keys``) unless VAPID_PRIVATE_KEY is set.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from events.common.network import is_loopback_host, lan_address, url_host  # noqa: E402

ANY = {"0.0.0.0", "::", "[::]", "*"}
# The development server answers each request in a thread of its own. On PostgreSQL it
# borrows connections from a pool of at most this many (config/settings.py, DB_POOL_MAX),
# so that a room signing up at once waits a moment for a connection instead of running
# PostgreSQL out of them. One process gains little from more (its threads take turns on one
# interpreter lock), and 10 leaves most of PostgreSQL's 100 for everything else.
DB_POOL_MAX = 10


def plan(host: str, port: str, site_url: str, lan: str) -> tuple[str, str]:
    """(the address runserver binds, the base address of every link)."""
    bind_host = "0.0.0.0" if host == "*" else host
    bind = f"[{bind_host.strip('[]')}]:{port}" if ":" in bind_host else f"{bind_host}:{port}"
    if site_url:
        return bind, site_url.rstrip("/")
    if host in ANY:
        return bind, f"http://{lan}:{port}"
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    return bind, f"http://{shown}:{port}"


def dev_push_keys(env: dict[str, str], var_dir: Path) -> None:
    """Browser push on the development server as in production: a VAPID key pair made once and
    kept in ``var/vapid-dev.txt`` (browsers subscribe again after a new pair). Left alone when
    the environment sets a key of its own."""
    if any(env.get(name) for name in ("VAPID_PRIVATE_KEY", "VAPID_PRIVATE_KEY_FILE")):
        return
    path = var_dir / "vapid-dev.txt"
    if not path.exists():
        from events.management.commands.vapid_keys import new_keys

        var_dir.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(new_keys()) + "\n")
        path.chmod(0o600)
    private, public = path.read_text().split()
    env["VAPID_PRIVATE_KEY"], env["VAPID_PUBLIC_KEY"] = private, public


def banner(base: str, venue: bool) -> str:
    """What a newcomer needs, once: where the site is, the demo's logins, how phones join."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from events import demo

    lines = [f"Tabletop Desk is running at {base}/"]
    if demo.is_loaded():
        clubs = ", ".join(f"{name} / {password}" for name, password in demo.CLUB_ORGANISERS)
        organiser = " / ".join(demo.ORGANISER)
        lines += [
            f"  The desk   {base}/desk/   {organiser} (every demo club)",
            f"             or one club's organiser: {clubs}",
            f"  The admin  {base}/admin/  {demo.ADMIN[0]} / {demo.ADMIN[1]}",
        ]
    if venue:
        lines.append(
            f"  Phones on this network open {base}/ (this QR code; the desk shows it too):"
        )
    else:
        lines.append(
            "  Phones     `make run HOST=0.0.0.0` serves the venue's network, with a QR code."
        )
    return "\n".join(lines)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    host = os.environ.get("HOST") or "127.0.0.1"
    port = os.environ.get("PORT") or "8000"
    venue = host in ANY
    bind, base = plan(host, port, os.environ.get("SITE_URL", ""), lan_address() if venue else "")
    env = {**os.environ, "SITE_URL": base}
    dev_push_keys(env, Path(os.environ.get("VAR_DIR") or ROOT / "var"))
    print(banner(base, venue), flush=True)
    from django.db import connections

    # This process only waits for the server from here on: the banner's connection would be one
    # more beside the server's pool and the worker's for as long as the server runs.
    connections.close_all()
    if venue:
        import segno

        segno.make(base + "/", error="m").terminal(compact=True)
    if venue and is_loopback_host(url_host(base)):
        print(
            f"Warning: phones cannot reach {url_host(base)}; connect this computer to the "
            "venue network, or set SITE_URL to an address they can reach.",
            flush=True,
        )
    print("Ctrl-C stops the server and its background worker (manage.py worker).", flush=True)
    manage = str(ROOT / "manage.py")
    # Beside the server, as `make serve` does in production: a worker for the outbox (e-mails,
    # pushes, webhooks), jobs at their instant (a turn's deadline, an offer's end) and the
    # periodic work, so that the demo behaves as it will at the event. Its own session: Ctrl-C
    # stops the server, which then stops the worker.
    worker = subprocess.Popen(
        [sys.executable, manage, "worker", "-v", "0"],
        env=env,
        start_new_session=True,
    )
    signal.signal(signal.SIGTERM, _interrupt)  # `kill`, a supervisor: stop both, as Ctrl-C does
    # The pool only in the server's environment (unless DB_POOL_MAX is set already): the worker
    # has two threads, each with one connection. runserver through config.devserver: a listen queue
    # deep enough for a room's requests arriving at once.
    server_env = {"DB_POOL_MAX": str(DB_POOL_MAX), **env}
    runserver = [sys.executable, "-m", "config.devserver", bind]
    try:
        status = subprocess.call(runserver, env=server_env, cwd=ROOT)
    except KeyboardInterrupt:
        status = 0
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
    sys.exit(status)


if __name__ == "__main__":
    main()
