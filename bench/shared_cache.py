"""A room of phones through the shipped nginx cache, and a burst of polls without it.

Usage: .venv/bin/python bench/shared_cache.py   (make bench-cache)

Starts, on production settings (as ``make bench``: a scratch PostgreSQL database, Redis on its
own database number; gunicorn with production's (2 x cores) + 1 workers), Debian's nginx with
``deploy/nginx/`` in front (``tests/support/servers.py``'s ``nginx_cache``, as the server
test does), seeds the 200-player sjoelen competition (``bench/seed.py``) and then:

1. **Through the cache**: BENCH_PHONES (5,000) simulated phones, each with the headers of a
   real phone's browser in one of the four languages (or in none of them: then the event's),
   poll the standings' htmx fragment every 10 s (each at its own moment of the 10 s, sending
   back its ETag) for BENCH_CACHE_SECONDS (60), while a result is written every 10 s
   (``competition_touch``: a new version). Reports the requests nginx sent on to the app for
   that page per second and language (nginx's log: not ``HIT``), the version age every answer
   carried (how long after the next version was written it was still served; by the phones'
   clock and by nginx's, whose log has each answer's ETag), the longest
   a phone took to see a write, latency at the cache (nginx's ``$request_time``, and at the
   phone, which shares the two cores), and errors.
2. **Without the cache** (BENCH_RUNS, 3, times): a write, then 2,000 polls of that fragment
   with the ETag of the version before, spread over one second, straight to gunicorn; just
   before, 2,000 requests to ``/healthz`` (the bare view) the same way. Reports the renders
   (``Server-Timing: live;desc=render``) and the p99 of both (median of the runs).

Targets: origin <= 2 requests/s per page and language; no answer older than the
cache's seconds (``LIVE_SHARED_SECONDS``) plus one poll; p99 at the cache <= 50 ms; zero
errors; without the cache, <= 2 renders per server process, p99 <= 2 x the bare view's.
Exits 1 when a target is missed or a request failed.
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from scratch import Services, free_port, log  # noqa: E402

PHONES = int(os.environ.get("BENCH_PHONES", "5000"))
SECONDS = float(os.environ.get("BENCH_CACHE_SECONDS", "60"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
POSTGRES = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432").rstrip("/")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
POLL = 10.0  # seconds, as the pages poll (events.live.pages.POLL)
WRITE_EVERY = 10.0
BURST = int(os.environ.get("BENCH_BURST", "2000"))  # polls in one second, without the cache
WORKERS = 2 * (os.cpu_count() or 1) + 1  # config.gunicorn's, as production runs
CONNECTIONS = 400  # the phones' connections to nginx (keep-alive, shared as behind a NAT)
TIMEOUT = aiohttp.ClientTimeout(total=10)

# What phones' browsers send; the language the app answers in (none of ours: the event's, "").
LANGUAGES = {
    "sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7": "sv",
    "sv": "sv",
    "sv-FI,sv;q=0.9,fi;q=0.8,en;q=0.7": "sv",
    "et-EE,et;q=0.9,ru;q=0.8,en;q=0.7": "et",
    "et": "et",
    "ru-RU,ru;q=0.9,et;q=0.8": "et",
    "nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7": "nl",
    "nl-BE,nl;q=0.9,fr;q=0.8": "nl",
    "de-DE,de;q=0.9,nl;q=0.8,en;q=0.7": "nl",
    "en-GB,en;q=0.9": "en",
    "en-US,en;q=0.9": "en",
    "fi-FI,fi;q=0.9": "",
}
ENCODING = "gzip, deflate, br"
VERSION = re.compile(r'"c-\d+\.(\d+)\.')


def _version(etag: str | None) -> int | None:
    found = VERSION.match(etag or "")
    return int(found.group(1)) if found else None


def _p(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


class Writer(threading.Thread):
    """A result every WRITE_EVERY seconds; ``written[v]`` is when version v was committed."""

    def __init__(self, competition, until: float) -> None:
        super().__init__(daemon=True)
        self.competition = competition
        self.until = until
        self.written: dict[int, float] = {}
        self.written_wall: dict[int, float] = {}

    def run(self) -> None:
        from django.db import connection

        from events.services import competition_touch

        while time.monotonic() + WRITE_EVERY < self.until:
            time.sleep(WRITE_EVERY)  # the bench's own pace, not a wait for a condition
            competition_touch(self.competition)
            self.competition.refresh_from_db(fields=["version"])
            self.written[self.competition.version] = time.monotonic()
            self.written_wall[self.competition.version] = time.time()
        connection.close()


async def _phone(
    phone: int,
    session: aiohttp.ClientSession,
    url: str,
    accept: str,
    start: float,
    until: float,
    seen: list[tuple[float, int, int, float]],
    errors: list[str],
) -> None:
    """One phone: poll at ``start`` + k x POLL; (time, phone, version, ms) per answer."""
    etag = None
    at = start
    while at < until:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        headers = {"HX-Request": "true", "Accept-Language": accept, "Accept-Encoding": ENCODING}
        if etag:
            headers["If-None-Match"] = etag
        began = time.monotonic()
        try:
            async with session.get(url, headers=headers) as response:
                await response.read()
                if response.status not in (200, 304):
                    errors.append(str(response.status))
                else:
                    etag = response.headers.get("ETag", etag)
        except (TimeoutError, aiohttp.ClientError) as error:
            errors.append(type(error).__name__)
        else:
            done = time.monotonic()
            version = _version(etag)
            if version is not None:
                seen.append((done, phone, version, (done - began) * 1000))
        at += POLL


async def _room(url: str, until: float) -> tuple[list[tuple[float, int, int, float]], list[str]]:
    seen: list[tuple[float, int, int, float]] = []
    errors: list[str] = []
    rng = random.Random(45)
    accepts = list(LANGUAGES)
    now = time.monotonic()
    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    async with aiohttp.ClientSession(connector=connector, timeout=TIMEOUT) as session:
        await asyncio.gather(
            *(
                _phone(
                    i,
                    session,
                    url,
                    rng.choice(accepts),
                    now + rng.uniform(0, POLL),
                    until,
                    seen,
                    errors,
                )
                for i in range(PHONES)
            )
        )
    return seen, errors


def through_the_cache(front: str, url: str, competition, log_path: Path, shared: int) -> bool:
    competition.refresh_from_db(fields=["version"])
    began = time.monotonic()
    until = began + SECONDS
    writer = Writer(competition, until)
    writer.written[competition.version] = began
    writer.written_wall[competition.version] = time.time()
    writer.start()
    seen, errors = asyncio.run(_room(front + url, until))
    writer.join()
    elapsed = time.monotonic() - began

    # The app's share: nginx's log lines for the page that went on to the app, by language
    # (the average over the run, and the most in any one second).
    per_language: collections.Counter[str] = collections.Counter()
    per_second: collections.Counter[tuple[str, int]] = collections.Counter()
    cache_ms: list[float] = []
    # ... and how old each version nginx sent was, by nginx's own clock (the phones' clock
    # is the bench's event loop, which shares the cores)
    walls = sorted(writer.written_wall.items())
    cache_ages: list[float] = []
    for line in log_path.read_text().splitlines():
        status, cached, path, took, language, at, etag = line.split(" ")[:7]
        if path != url:
            continue
        cache_ms.append(float(took) * 1000)
        version = _version(etag.replace("\\x22", '"'))  # nginx escapes quotes in its log
        if version is not None:
            newer = [w for v, w in walls if v > version and w < float(at)]
            cache_ages.append(float(at) - min(newer) if newer else 0.0)
        if cached not in ("HIT", "STALE", "UPDATING"):
            per_language[language or "(event's)"] += 1
            per_second[(language or "(event's)", int(float(at)))] += 1
    rates = {language: count / elapsed for language, count in per_language.items()}
    peaks = {
        language: max(n for (lang, _), n in per_second.items() if lang == language)
        for language in per_language
    }

    # How old each answer's version was: served while a newer one had been written for how long.
    commits = sorted(writer.written.items())
    ages: list[float] = []
    for done, _phone_id, version, _ms in seen:
        newer = [at for v, at in commits if v > version and at < done]
        ages.append(done - min(newer) if newer else 0.0)
    # How long each phone took to show each write.
    by_phone: dict[int, list[tuple[float, int]]] = collections.defaultdict(list)
    for done, phone_id, version, _ms in seen:
        by_phone[phone_id].append((done, version))
    delays: list[float] = []
    for version, at in commits[1:]:
        for answers in by_phone.values():
            later = [done for done, v in answers if v >= version and done >= at]
            if later and answers[-1][0] > at + POLL + shared + 2:
                delays.append(min(later) - at)
    phone_ms = [ms for *_rest, ms in seen]
    log(
        f"through the cache: {len(seen):,} answers to {PHONES:,} phones in {elapsed:.0f} s "
        f"({len(seen) / elapsed:,.0f}/s), {len(commits) - 1} writes, {len(errors)} errors"
    )
    for language, rate in sorted(rates.items()):
        log(
            f"  the app was asked for the page in {language}: {rate:.2f}/s, "
            f"at most {peaks[language]} in a second"
        )
    worst_rate = max(rates.values(), default=0.0)
    log(
        f"  version age of the answers: p99 {_p(ages, 0.99):.2f} s, "
        f"max {max(ages, default=0):.2f} s (the cache's seconds: {shared})"
    )
    log(
        f"  version age of what nginx sent, by its clock: p99 {_p(cache_ages, 0.99):.2f} s, "
        f"max {max(cache_ages, default=0):.2f} s"
    )
    log(
        f"  a phone saw a write after: median {statistics.median(delays or [0]):.1f} s, "
        f"max {max(delays, default=0):.1f} s (the poll: {POLL:g} s)"
    )
    log(
        f"  latency at the cache (nginx): p50 {_p(cache_ms, 0.5):.1f} ms, "
        f"p99 {_p(cache_ms, 0.99):.1f} ms; at the phone: p50 {_p(phone_ms, 0.5):.1f} ms, "
        f"p99 {_p(phone_ms, 0.99):.1f} ms"
    )
    met = {
        "origin <= 2/s per language": worst_rate <= 2.0,
        "no answer older than the cache's seconds + one poll": max(ages, default=0)
        <= shared + POLL,
        "p99 at the cache <= 50 ms": _p(cache_ms, 0.99) <= 50,
        "zero errors": not errors,
    }
    for what, ok in met.items():
        log(f"  {what}: {'yes' if ok else 'NO'}")
    return all(met.values())


async def _burst(
    url: str, headers: dict[str, str]
) -> tuple[list[float], collections.Counter[str], int]:
    """BURST requests spread over one second; their ms, how the answers were made, errors."""
    timings: list[float] = []
    hows: collections.Counter[str] = collections.Counter()
    errors = 0
    connector = aiohttp.TCPConnector(limit=200)
    async with aiohttp.ClientSession(connector=connector, timeout=TIMEOUT) as session:

        async def one(at: float) -> None:
            nonlocal errors
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            began = time.monotonic()
            try:
                async with session.get(url, headers=headers) as response:
                    await response.read()
                    hows[response.headers.get("Server-Timing", "")] += 1
                    if response.status not in (200, 304):
                        errors += 1
            except (TimeoutError, aiohttp.ClientError):
                errors += 1
            timings.append((time.monotonic() - began) * 1000)

        now = time.monotonic() + 0.05
        await asyncio.gather(*(one(now + i / BURST) for i in range(BURST)))
    return timings, hows, errors


def without_the_cache(app: str, url: str, competition) -> bool:
    import urllib.request

    from events.services import competition_touch

    headers = {
        "HX-Request": "true",
        "Accept-Language": "sv-SE,sv;q=0.9",
        "Accept-Encoding": ENCODING,
    }
    bare_p99: list[float] = []
    page_p99: list[float] = []
    renders: list[int] = []
    errors = 0
    # Every worker warm on both paths (a worker's first page loads templates, opens Redis).
    asyncio.run(_burst(app + "/healthz", {}))
    asyncio.run(_burst(app + url, headers))
    for _ in range(RUNS):
        request = urllib.request.Request(app + url, headers=headers)
        with urllib.request.urlopen(request, timeout=10) as answer:
            held = answer.headers["ETag"]
        bare, _hows, failed = asyncio.run(_burst(app + "/healthz", {}))
        errors += failed
        competition_touch(competition)
        timings, hows, failed = asyncio.run(_burst(app + url, {**headers, "If-None-Match": held}))
        errors += failed
        bare_p99.append(_p(bare, 0.99))
        page_p99.append(_p(timings, 0.99))
        renders.append(hows["live;desc=render"])
        log(
            f"  without the cache: {dict(hows)}; p99 {_p(timings, 0.99):.1f} ms, "
            f"bare {_p(bare, 0.99):.1f} ms"
        )
    median_page, median_bare = statistics.median(page_p99), statistics.median(bare_p99)
    log(
        f"without the cache: {BURST:,} polls in a second after a write: renders {renders} "
        f"({WORKERS} server processes), p99 {median_page:.1f} ms vs the bare view's "
        f"{median_bare:.1f} ms "
        f"({median_page / median_bare:.2f}x, median of {RUNS}); {errors} errors"
    )
    met = max(renders) <= 2 * WORKERS and median_page <= 2 * median_bare and not errors
    log(f"  <= 2 renders per process, p99 <= 2x bare, no errors: {'yes' if met else 'NO'}")
    return met


def main() -> int:
    from tests.support.servers import nginx_available, nginx_cache

    if not nginx_available():
        raise SystemExit("nginx is not installed: apt-get install nginx-light")
    services = Services(POSTGRES, REDIS_URL)
    directory = Path(tempfile.mkdtemp(prefix="bench-nginx-"))
    try:
        database_url = services.create_database()
        services.start_redis()
        port = free_port()
        env = services.production_env(database_url)
        os.environ.update(env)
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        import seed

        page = next(p for p in seed.sjoelen() if "standings" in p.label)
        # As production runs it: config.gunicorn's workers, (2 x cores) + 1
        services.start_gunicorn(env, port, workers=None)
        app = f"http://127.0.0.1:{port}"
        with nginx_cache(free_port(), [app], directory) as front:
            log(f"gunicorn at {app}, nginx at {front}; {page.label}: {page.url}")
            ok = through_the_cache(
                front,
                page.url,
                page.competition,
                directory / "access.log",
                settings.LIVE_SHARED_SECONDS,
            )
        ok = without_the_cache(app, page.url, page.competition) and ok
        return 0 if ok else 1
    finally:
        services.close()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
