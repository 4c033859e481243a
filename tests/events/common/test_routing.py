"""Nested URL groups: the same routes, in the same order, names and reversing unchanged."""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import URLResolver, path, resolve, reverse

from events.common.routing import nest


def view(request, **kwargs):
    return HttpResponse("")


ROUTES = [
    "",
    "desk/",
    "desk/new/",
    "desk/<slug:event_slug>/",
    "desk/<slug:event_slug>/people/",
    "desk/entries/<int:entry_id>/<slug:action>/",
    "desk/<slug:event_slug>/edit/",
    "e/<slug:event_slug>/",
]


def _walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.name


def test_routes_keep_their_order_and_names():
    patterns = [path(route, view, name=f"r{i}") for i, route in enumerate(ROUTES)]
    nested = nest(patterns, "desk/", "desk/<slug:event_slug>/", "e/<slug:event_slug>/")
    assert list(_walk(nested)) == [(route, f"r{i}") for i, route in enumerate(ROUTES)]
    # the runs: "", desk/ (2), desk/<event>/ (2), desk/ (1), desk/<event>/ (1), e/<event>/ (1)
    assert len(nested) == 6


def test_the_site_resolves_and_reverses_through_the_groups():
    url = reverse("events:people", kwargs={"event_slug": "lincon"})
    assert url == "/desk/lincon/people/"
    match = resolve(url)
    assert match.view_name == "events:people"
    assert match.kwargs == {"event_slug": "lincon"}
    standings = "/e/lincon/sjoelen/sjoelen/"
    match = resolve(standings)
    assert match.view_name == "shuffleboard:standings"
    assert match.kwargs == {"event_slug": "lincon", "competition_slug": "sjoelen"}
