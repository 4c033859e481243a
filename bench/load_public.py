"""Load on a public page of a running server: a room of phones polling it.

Usage (against a server you started, e.g. gunicorn on 127.0.0.1:8040):
    .venv/bin/python bench/load_public.py http://127.0.0.1:8040/e/<event>/<competition>/ \
        [--phones 50] [--seconds 10]

Each simulated phone polls the page's htmx fragment, sending back the ETag it last received,
as htmx does through the browser cache. Prints requests per second, the share of 304 answers
and latency percentiles. Loopback addresses only; it stops by itself.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlparse


def phone(url: str, until: float, results: list[tuple[int, float]], lock: threading.Lock) -> None:
    etag = None
    local: list[tuple[int, float]] = []
    while time.monotonic() < until:
        headers = {"HX-Request": "true"}
        if etag:
            headers["If-None-Match"] = etag
        request = urllib.request.Request(url, headers=headers)
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
                status = response.status
                etag = response.headers.get("ETag", etag)
        except urllib.error.HTTPError as error:
            status = error.code
        local.append((status, (time.perf_counter() - start) * 1000))
    with lock:
        results.extend(local)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    host = urlparse(args.url).hostname or ""
    if not (host.startswith("127.") or host in ("localhost", "::1")):
        raise SystemExit("Only loopback addresses may be loaded from here.")
    results: list[tuple[int, float]] = []
    lock = threading.Lock()
    until = time.monotonic() + min(args.seconds, 120)
    threads = [
        threading.Thread(target=phone, args=(args.url, until, results, lock))
        for _ in range(min(args.phones, 500))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    timings = sorted(ms for _, ms in results)
    not_modified = sum(1 for status, _ in results if status == 304)
    errors = sum(1 for status, _ in results if status >= 500)
    print(
        f"{len(results)} requests from {len(threads)} phones in {args.seconds:.0f} s: "
        f"{len(results) / args.seconds:.0f} req/s, {not_modified / len(results):.1%} answered 304, "
        f"{errors} server errors"
    )
    print(
        f"latency ms: median {statistics.median(timings):.1f}, "
        f"p95 {timings[int(len(timings) * 0.95) - 1]:.1f}, max {timings[-1]:.1f}"
    )


if __name__ == "__main__":
    main()
