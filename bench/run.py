"""`make bench`: the live pages under load, on production settings, against /healthz.

Usage: make bench   (or: .venv/bin/python bench/run.py)

What it does, as docs/deploy.md's production setup runs the app:
- creates a scratch PostgreSQL database (dropped at the end) and uses Redis on its own database
  number (flushed before and after); starts a throwaway redis-server when none answers
  (``bench/scratch.py``: the database, Redis, gunicorn and wrk);
- migrates, collects static files and seeds the bench data through the project's services and
  bulk inserts (``bench/seed.py``): a 200-player sjoelen competition, two 64-player Blokus
  sessions, a 700-player round robin; and the series' (``bench/series.py``): two sjoelen
  seasons of 40 nights x 40 players with a series each, 80 played Blokus sessions, rated;
- times, in-process before gunicorn starts, both seasons' full series recompute
  (``series_table``, median of 5) and the Blokus rating's recompute after a correction in the
  first of the 80 sessions (``rating_recompute(from_game=...)``, median of 3); and the outbox
  (``bench/outbox.py``): 1,000 e-mails queued, drained by two workers at once, the
  time and the duplicates (must be 0);
- starts gunicorn (``-c python:config.gunicorn config.wsgi``, 2 sync workers, production
  settings), then runs wrk (Debian's package, installed with apt-get when missing) with 50
  connections against ``/healthz`` and, for each live page's htmx fragment (what phones poll),
  the 304 path (``If-None-Match`` matching), the cached 200 and the full page's 200, each
  request with the ``Accept-Encoding`` (gzip) and ``Accept-Language`` a phone's browser sends
  (the live pages: sjoelen, Blokus, round robin, and season 1's series page);
- measures the first render after a write: a write (``competition_touch``, a new version) and
  a read, alternately, one connection, checking that every read carries the new ETag;
- the read API: each seeded competition's ``/api/v1/…/standings``, the 304 (the
  version ETag) and the cached 200, the rate limit counting (``API_RATE_LIMIT`` set high, so
  every request pays its share of the shared counter and none is refused);
- the clubs' pages (``bench/clubs.py``): 100 clubs of 20 events, the front page and a
  club's page, each rendered per request (no version ETag), beside the bare view;
- signs up on an event's sign-up page (``bench/signups.py``): the page's first render, 200
  sign-ups within a minute from 200 client addresses, the 11th from one address refused;
- prints one table (req/s, p50, p99, errors, share of /healthz, target) and exits 1 when any
  request failed (a non-2xx/3xx answer, a socket error, a stale or wrong status).

A request that gets no answer within REQUEST_TIMEOUT (10 s), a wrk line without a single
answer and a wrk run that fails or hangs are errors (counted, never waited for). A quick smoke
run: ``BENCH_SECONDS=2 make bench`` (figures meaningless, the whole path exercised).

Environment: BENCH_SECONDS (5, per wrk line), BENCH_CONNECTIONS (50), BENCH_THREADS (2),
BENCH_POSTGRES (postgres://postgres@127.0.0.1:5432, where the scratch database is made),
BENCH_REDIS_URL (redis://127.0.0.1:6379/13), BENCH_RESULTS (200 round-robin results seeded),
BENCH_RUNS (3).
Each wrk line runs BENCH_RUNS (3) times, each run right after a run of the bare view; the
figures are medians, the share the median of the runs' own shares.
Targets (every request through the whole middleware stack, no side door before Django): 304
>= 60 % of /healthz, cached 200 >= 50 % (a full page within 5 points of its fragment), p99 at
most twice the bare view's p99 in the same runs, no errors;
first render after a write: sjoelen and Blokus p50 < 25 ms, round-robin tables p50 < 100 ms,
the series page (a write to one of its nights) p50 < 50 ms, its 304 and cached 200
as above. Recomputes: both seasons' series standings < 1000 ms; the rating's
recompute is timed, with no target set.
"""

from __future__ import annotations

import http.client
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from scratch import Services, ensure_wrk, free_port, log  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "50"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
POSTGRES = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432").rstrip("/")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
RESULTS = int(os.environ.get("BENCH_RESULTS", "200"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
HEALTH = os.environ.get("BENCH_CEILING", "/healthz")  # the bare view: the ceiling
# What a phone's browser sends with every request: the languages its owner reads, and that it
# takes gzip (events/live/pages.py). A browser naming none of the site's languages costs one more
# cache round trip on a 200 (the event's language first, then the body in that language).
PHONE = {"Accept-Encoding": "gzip, deflate, br", "Accept-Language": "sv-SE,sv;q=0.9,en;q=0.8"}
HTMX = {"HX-Request": "true", **PHONE}
REQUEST_TIMEOUT = 10.0  # seconds: a page that does not answer by then is an error, not a hang

# Shares of /healthz's req/s and p99 bounds; first-render p50 bounds.
SHARE_304 = 0.60  # through the whole middleware stack, no side door; 0.65 the stretch
SHARE_200 = 0.50
PAGE_BESIDE_FRAGMENT = 0.05  # a full page's share within 5 points of its fragment's
P99_OF_CEILING = 2.0  # p99 at most twice the bare view's p99 in the same runs
# "series" first: its label names its format too.
FIRST_RENDER_MS = {"series": 50.0, "sjoelen": 25.0, "Blokus": 25.0, "round-robin": 100.0}


@dataclass
class Row:
    request: str
    rate: float
    p50: float
    p99: float
    errors: int
    kind: str  # "ceiling", "304", "200", "page", "club", "first", "signup", "recompute", "outbox"
    note: str = ""
    share: float | None = None  # of the bare view's req/s, run beside it (median of RUNS)
    ceiling_p99: float | None = None  # the bare view's p99 in the same runs (median)
    bound: float | None = None  # a recompute's p50 target in ms (None: timed, no target)


def interleaved(run_line, run_ceiling) -> Row:
    """RUNS runs of a line, each right after a run of the bare view: the median of each figure,
    the share as the median of the runs' own shares (the machine's drift cancels out)."""
    rows, ceilings = [], []
    for _ in range(RUNS):
        ceilings.append(run_ceiling())
        rows.append(run_line())
    shares = [r.rate / c.rate if c.rate else 0.0 for r, c in zip(rows, ceilings, strict=True)]
    first = rows[0]
    return Row(
        first.request,
        statistics.median(r.rate for r in rows),
        statistics.median(r.p50 for r in rows),
        statistics.median(r.p99 for r in rows),
        sum(r.errors for r in rows) + sum(c.errors for c in ceilings),
        first.kind,
        f"median of {RUNS}",
        statistics.median(shares),
        statistics.median(c.p99 for c in ceilings),
    )


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str, float]:
    """One request on a new connection (gunicorn's sync workers close each one): status,
    ETag, milliseconds. The Host wrk sends (with the port): the cached bodies are keyed on it,
    so the warm-up before a wrk line fills the cache that line reads."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    start = time.perf_counter()
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}", **headers})
    response = conn.getresponse()
    response.read()
    took = (time.perf_counter() - start) * 1000
    conn.close()
    return response.status, response.getheader("ETag") or "", took


def wait_ready(port: int) -> None:
    for _ in range(300):
        try:
            status, _etag, _ms = get(port, HEALTH, {})
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"gunicorn did not answer {HEALTH} with 200 within 30 s")


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(binary: str, port: int, label: str, path: str, headers: dict[str, str], kind: str) -> Row:
    command = [binary, "-t", str(THREADS), "-c", str(CONNECTIONS), "-d", f"{SECONDS:g}s"]
    command += ["--latency", "--timeout", "10s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    try:
        done_run = subprocess.run(
            [*command, f"http://127.0.0.1:{port}{path}"],
            capture_output=True,
            text=True,
            timeout=SECONDS + 30,
        )
    except subprocess.TimeoutExpired:  # wrk itself hung: the line failed
        return Row(label, 0.0, float("nan"), float("nan"), 1, kind, "wrk timed out")
    out = done_run.stdout
    if done_run.returncode != 0:
        log(f"wrk failed on {path}: {done_run.stderr.strip()}")
        return Row(label, 0.0, float("nan"), float("nan"), 1, kind, "wrk failed")

    def latency(percent: str) -> float:
        match = re.search(rf"^\s*{percent}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        return float(match.group(1)) * UNITS[match.group(2)] if match else float("nan")

    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    )
    errors = int(bad.group(1)) if bad else 0
    errors += sum(int(n) for n in sockets.groups()) if sockets else 0
    done = re.search(r"(\d+) requests in", out)
    if not done or not int(done.group(1)):
        errors += 1  # not one answer in the whole run: a failure, not a zero
    return Row(
        label, float(rate.group(1)) if rate else 0.0, latency("50"), latency("99"), errors, kind
    )


def first_renders(port: int, label: str, path: str, competition) -> Row:
    """Write, then read, alternately for SECONDS (at least 20 reads): each read must be a 200
    with a new ETag (the write's version), never the old page."""
    from events.services import competition_touch

    times: list[float] = []
    errors = 0
    try:
        _status, last, _ms = get(port, path, HTMX)
    except OSError:
        last = ""
    until = time.monotonic() + SECONDS
    while time.monotonic() < until or len(times) < 20:
        competition_touch(competition)
        try:
            status, etag, took = get(port, path, HTMX)
        except OSError:  # no answer within REQUEST_TIMEOUT, or the connection failed
            errors += 1
            times.append(REQUEST_TIMEOUT * 1000)
            continue
        if status != 200 or etag == last:
            errors += 1
        last = etag
        times.append(took)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    rate = len(times) / (sum(times) / 1000)
    return Row(label, rate, statistics.median(times), p99, errors, "first", "1 connection")


def api_standings(pages) -> list[tuple[str, str]]:
    """(label, address) of the read API's standings of each seeded competition, once each."""
    found: dict[int, tuple[str, str]] = {}
    for page in pages:
        competition = page.competition
        if competition.pk in found or page.label.startswith("series"):
            continue
        entries = competition.entries.count()
        found[competition.pk] = (
            f"API standings, {competition.format} {entries}",
            f"/api/v1/events/{competition.event.slug}/competitions/{competition.slug}/standings",
        )
    return list(found.values())


def verdict(row: Row, fragment: Row | None) -> tuple[str, bool]:
    """The share of /healthz shown and whether the row meets its target."""
    share = f"{row.share:.0%}" if row.share is not None else "-"
    if row.errors:
        return share, False
    if row.kind == "first":
        bound = next(ms for key, ms in FIRST_RENDER_MS.items() if key in row.request)
        return share, row.p50 < bound
    if row.kind in ("ceiling", "signup", "outbox"):
        return share, True  # a sign-up or outbox row meets its target when nothing failed
    if row.kind == "recompute":
        return share, row.bound is None or row.p50 < row.bound
    if row.ceiling_p99 is not None and row.p99 > P99_OF_CEILING * row.ceiling_p99:
        return share, False
    needed = {"304": SHARE_304, "200": SHARE_200, "page": SHARE_200}.get(row.kind)
    if needed is not None and (row.share or 0.0) < needed:
        return share, False
    if row.kind == "page" and fragment is not None and fragment.share and row.share is not None:
        return share, row.share >= fragment.share - PAGE_BESIDE_FRAGMENT
    return share, True


def target_text(row: Row) -> str:
    if row.kind == "ceiling":
        return "the bare view"
    if row.kind == "signup":
        return "no errors; 200 within 60 s; the 11th a 429"
    if row.kind == "outbox":
        return "all sent, 0 duplicates (p50: the whole drain)"
    if row.kind == "recompute":
        return f"p50 < {row.bound:g} ms" if row.bound else "timed (no target)"
    if row.kind == "club":
        return f"no errors, p99 <= {P99_OF_CEILING:g}x bare (share: no target)"
    if row.kind == "first":
        bound = next(ms for key, ms in FIRST_RENDER_MS.items() if key in row.request)
        return f"p50 < {bound:g} ms"
    share = {"304": SHARE_304, "200": SHARE_200, "page": SHARE_200}.get(row.kind)
    p99 = f"p99 <= {P99_OF_CEILING:g}x bare"
    if row.kind == "page":
        return f">= {share:.0%}, <= 5 pts off fragment, {p99}"
    return f">= {share:.0%}, {p99}" if share else p99


def print_table(rows: list[Row]) -> bool:
    head = (
        f"| {'request':46} | {'req/s':>7} | {'p50 ms':>7} | {'p99 ms':>7} | {'errors':>6} "
        f"| {'/healthz':>8} | {'bare p99':>8} | {'target':46} | met |"
    )
    print(head)
    print("|" + "|".join("-" * (len(cell)) for cell in head.split("|")[1:-1]) + "|")
    ok = True
    fragment = None
    for row in rows:
        if row.kind == "200":
            fragment = row
        share, met = verdict(row, fragment if row.kind == "page" else None)
        bare = "-" if row.ceiling_p99 is None else f"{row.ceiling_p99:.1f}"
        ok = ok and met
        print(
            f"| {row.request:46} | {row.rate:>7,.0f} | {row.p50:>7.1f} | {row.p99:>7.1f} "
            f"| {row.errors:>6} | {share:>8} | {bare:>8} | {target_text(row):46} "
            f"| {'yes' if met else 'NO':3} |"
        )
    return ok


def main() -> int:
    binary = ensure_wrk()
    services = Services(POSTGRES, REDIS_URL)
    try:
        database_url = services.create_database()
        services.start_redis()
        port = free_port()
        env = services.production_env(
            database_url,
            SITE_URL=f"http://127.0.0.1:{port}",
            # The sign-up bench speaks as 200 addresses through X-Forwarded-For (one proxy).
            TRUSTED_PROXIES="1",
            # The read API's limit counts as in production but never refuses wrk's requests.
            API_RATE_LIMIT="1000000000",
        )
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command

        log(f"scratch database {services.database}, Redis {services.redis_url}")
        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        import seed
        import series

        started = time.perf_counter()
        pages = [*seed.sjoelen(), *seed.blokus(), *seed.roundrobin(results=RESULTS)]
        series_seeded = series.seed()
        pages += series_seeded.pages
        import clubs  # a federation's front page and a club's page

        club_pages = clubs.seed()
        log(f"seeded in {time.perf_counter() - started:.0f} s")
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        recomputes = series.timed(series_seeded, Row)
        import outbox  # 1,000 messages drained by two workers at once

        recomputes += outbox.run(Row)
        services.start_gunicorn(env, port)
        wait_ready(port)
        log(
            f"gunicorn on 127.0.0.1:{port}, 2 workers; wrk {THREADS} threads, "
            f"{CONNECTIONS} connections, {SECONDS:g} s per line; {os.cpu_count()} cores"
        )

        def ceiling() -> Row:
            return wrk(binary, port, HEALTH, HEALTH, {}, "ceiling")

        rows = [interleaved(ceiling, ceiling)]
        for page in pages:
            fragment = {**HTMX}
            try:
                for _ in range(3):  # both workers warm, the fragment in the cache
                    status, etag, _ms = get(port, page.url, fragment)
                    get(port, page.url, PHONE)
            except OSError as error:
                raise SystemExit(f"{page.url} did not answer: {error}") from None
            if status != 200 or not etag:
                raise SystemExit(f"{page.url}: {status}, ETag {etag!r}")
            status, _etag, _ms = get(port, page.url, {**fragment, "If-None-Match": etag})
            errors = 0 if status == 304 else 1
            lines = [
                (f"{page.label}, 304", {**fragment, "If-None-Match": etag}, "304"),
                (f"{page.label}, 200 (fragment)", fragment, "200"),
                (f"{page.label}, 200 (page)", PHONE, "page"),
            ]
            for label, headers, kind in lines:
                row = interleaved(
                    lambda label=label, headers=headers, kind=kind, url=page.url: wrk(
                        binary, port, label, url, headers, kind
                    ),
                    ceiling,
                )
                if kind == "304":
                    row.errors += errors
                rows.append(row)
        for label, url in club_pages:
            status, _etag, _ms = get(port, url, PHONE)
            if status != 200:
                raise SystemExit(f"{url}: {status}")
            rows.append(
                interleaved(
                    lambda label=label, url=url: wrk(binary, port, label, url, PHONE, "club"),
                    ceiling,
                )
            )
        for label, url in api_standings(pages):
            status, etag, _ms = get(port, url, {"Accept-Encoding": "gzip"})
            if status != 200 or not etag:
                raise SystemExit(f"{url}: {status}, ETag {etag!r}")
            for line, headers, kind in (
                (f"{label}, 304", {"Accept-Encoding": "gzip", "If-None-Match": etag}, "304"),
                (f"{label}, 200 (cached)", {"Accept-Encoding": "gzip"}, "200"),
            ):
                rows.append(
                    interleaved(
                        lambda line=line, headers=headers, kind=kind, url=url: wrk(
                            binary, port, line, url, headers, kind
                        ),
                        ceiling,
                    )
                )
        for page in pages:
            if page.label.startswith("event page"):
                continue
            rows.append(
                first_renders(
                    port, f"{page.label}, first render after a write", page.url, page.competition
                )
            )
        import signups

        rows.extend(signups.run(port, Row))
        rows.extend(recomputes)
        print()
        met = print_table(rows)
        errors = sum(row.errors for row in rows)
        print(
            f"\n{os.cpu_count()} cores; gunicorn 2 sync workers; PostgreSQL, Redis; wrk "
            f"{CONNECTIONS} connections, {SECONDS:g} s per run, {RUNS} runs per line, each "
            "right after a run of the bare view (the share is the median of the runs' own "
            "shares). First renders: one connection, a write before every read."
        )
        if errors:
            print(f"{errors} requests failed")
            return 1
        print("all targets met" if met else "some targets missed (see the last column)")
        return 0
    finally:
        services.close()


if __name__ == "__main__":
    sys.exit(main())
