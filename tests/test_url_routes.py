"""Every URL name and route stays (printed QR codes keep working): the site's routes against
the snapshot taken before "One house" moved the code (tests/files/url_routes.json). A route may
be added (then add it to the snapshot); none may change or go."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver, resolve

from tests.support.routes import routes

SNAPSHOT = Path(__file__).parent / "files" / "url_routes.json"


def test_every_route_of_the_snapshot_is_still_served_under_its_name():
    now = {r for r in routes(get_resolver().url_patterns) if not r[1].startswith("admin/")}
    before = {tuple(row) for row in json.loads(SNAPSHOT.read_text())}
    assert before - now == set(), "routes gone or renamed"


SAMPLE = {"slug": "some-slug", "int": "7", "str": "tok3n", "path": "a/b"}


def callbacks(patterns: list, prefix: str = "") -> Iterator[tuple[str, str, object]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from callbacks(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield pattern.name, prefix + str(pattern.pattern), pattern.callback


def test_no_route_is_shadowed_by_one_matched_before_it():
    """The rooms' URL modules are gathered in an order (events/urls.py): an address made for
    each named route (its converters filled in) reaches that route's own view, not a route of
    the same shape matched earlier (an event's sign-up page taken for a competition's slug)."""
    shadowed = []
    for name, route, callback in callbacks(get_resolver().url_patterns):
        if route.startswith(("admin/", "api/")) or "(?" in route or "^" in route:
            continue
        address = "/" + re.sub(
            r"<(?:(\w+):)?\w+>", lambda m: SAMPLE.get(m.group(1) or "str", "x"), route
        )
        if resolve(address).func is not callback:
            shadowed.append(f"{name}: {address} -> {resolve(address).view_name}")
    assert not shadowed, shadowed
