"""The sign-up page under `make bench`: its first render, 200 sign-ups within a
minute from 200 client addresses, and the 11th sign-up from one address refused.

Run by bench/run.py against its gunicorn (production settings, ``TRUSTED_PROXIES=1``: the
client's address is the X-Forwarded-For entry the proxy in front would set, so one machine can
speak as 200 addresses). Each simulated person does what a browser does: GET the page (the
CSRF cookie and token), then POST the form.
"""

from __future__ import annotations

import datetime as dt
import http.client
import re
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

PEOPLE = 200
WORKERS = 10  # concurrent people; 200 in a minute is 3.3 a second
FIRST_RENDERS = 30
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
TIMEOUT = 10.0


def seed() -> tuple[str, int]:
    """An event with one competition taking sign-ups: (its sign-up path, competition id)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from events import services
    from events.formats import all_formats
    from events.signups.services import lifecycle as signups

    organiser = get_user_model().objects.create_user(username="bench-signups")
    today = dt.date.today()
    event = services.event_create(
        name="Bench sign-up",
        starts_on=today + dt.timedelta(days=30),
        ends_on=today + dt.timedelta(days=30),
        time_zone="Europe/Stockholm",
        organiser=organiser,
    )
    competition = services.competition_create(event=event, name="Open", format=all_formats()[0].key)
    now = timezone.now()
    signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=20),
        cap=150,  # 150 seats, then the waitlist: both paths taken
    )
    return f"/e/{event.slug}/sign-up/", competition.pk


def _request(port: int, method: str, path: str, headers: dict[str, str], body: str = ""):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        start = time.perf_counter()
        conn.request(method, path, body=body or None, headers={"Host": "127.0.0.1", **headers})
        response = conn.getresponse()
        content = response.read()
        took = (time.perf_counter() - start) * 1000
        return response.status, response.getheader("Set-Cookie") or "", content, took
    finally:
        conn.close()


def sign_up(port: int, path: str, competition_id: int, n: int, address: str) -> tuple[int, float]:
    """One person: the page, then the form. (status of the POST, its milliseconds)."""
    forwarded = {"X-Forwarded-For": address, "Accept-Language": "sv-SE,sv;q=0.9"}
    status, cookie, content, _ms = _request(port, "GET", path, forwarded)
    match = TOKEN.search(content)
    csrf = re.search(r"csrftoken=([^;]+)", cookie)
    if status != 200 or not match or not csrf:
        return status or 599, 0.0
    body = urlencode(
        {
            "csrfmiddlewaretoken": match.group(1).decode(),
            "name": f"Bench Person {n}",
            "email": f"bench{n}@example.org",
            "club": "Bench",
            "language": "sv",
            "competitions": str(competition_id),
            "consent": "on",
            "website": "",
        }
    )
    headers = {
        **forwarded,
        "Cookie": f"csrftoken={csrf.group(1)}",
        "Content-Type": "application/x-www-form-urlencoded",
        "Referer": f"http://127.0.0.1:{port}{path}",
    }
    status, _cookie, _content, took = _request(port, "POST", path, headers, body)
    return status, took


def run(port: int, Row) -> list:  # noqa: N803 - bench/run.py's Row class
    path, competition_id = seed()
    rows = []

    # The page's first render: every GET renders (a form with a fresh CSRF token, no cache).
    times = []
    errors = 0
    for _ in range(FIRST_RENDERS):
        try:
            status, _c, _b, took = _request(port, "GET", path, {"X-Forwarded-For": "10.9.9.9"})
        except OSError:
            errors, took, status = errors + 1, TIMEOUT * 1000, 0
        errors += status != 200
        times.append(took)
    times.sort()
    rows.append(
        Row(
            "sign-up page, first render",
            len(times) / (sum(times) / 1000),
            statistics.median(times),
            times[-1],
            errors,
            "signup",
            "1 connection",
        )
    )

    # 200 people from 200 addresses, 10 at a time.
    lock = threading.Lock()
    results: list[tuple[int, float]] = []

    def person(n: int) -> None:
        address = f"10.{n // 250}.{n % 250}.{1 + n % 200}"
        try:
            outcome = sign_up(port, path, competition_id, n, address)
        except OSError:
            outcome = (599, TIMEOUT * 1000)
        with lock:
            results.append(outcome)

    started = time.perf_counter()
    with ThreadPoolExecutor(WORKERS) as pool:
        list(pool.map(person, range(PEOPLE)))
    elapsed = time.perf_counter() - started
    posts = sorted(took for _status, took in results)
    failed = sum(status != 200 for status, _took in results)
    rows.append(
        Row(
            f"{PEOPLE} sign-ups, {PEOPLE} addresses ({elapsed:.1f} s)",
            PEOPLE / elapsed,
            statistics.median(posts),
            posts[min(len(posts) - 1, int(len(posts) * 0.99))],
            failed + (elapsed > 60),
            "signup",
            f"{WORKERS} at a time",
        )
    )

    # One address, eleven sign-ups: ten taken, the eleventh refused (429).
    statuses = [sign_up(port, path, competition_id, 10_000 + n, "10.250.0.1")[0] for n in range(11)]
    wrong = sum(s != 200 for s in statuses[:10]) + (statuses[10] != 429)
    rows.append(
        Row(
            "11 sign-ups from one address (11th: 429)",
            0.0,
            0.0,
            0.0,
            wrong,
            "signup",
            " ".join(str(s) for s in statuses[-2:]),
        )
    )
    return rows
