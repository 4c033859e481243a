"""Every URL name and route stays (printed QR codes keep working): the site's routes against
the snapshot taken before "One house" moved the code (tests/files/url_routes.json). A route may
be added (then add it to the snapshot); none may change or go."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

SNAPSHOT = Path(__file__).parent / "files" / "url_routes.json"


def routes(patterns: list, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}{pattern.name}" if pattern.name else ""
            yield name, prefix + str(pattern.pattern)


def test_every_route_of_the_snapshot_is_still_served_under_its_name():
    now = {r for r in routes(get_resolver().url_patterns) if not r[1].startswith("admin/")}
    before = {tuple(row) for row in json.loads(SNAPSHOT.read_text())}
    assert before - now == set(), "routes gone or renamed"
