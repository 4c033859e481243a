"""The live mechanism of public pages: ETags from the competition's or event's version.

Every write bumps ``Competition.version`` and ``Event.version`` (``services.competition_touch``).
A public view decorated with ``live_competition`` or ``live_event`` answers ``304 Not Modified``
while the version, the page/fragment choice and the language are unchanged, for one query.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import condition

from events.models import Competition, Event

POLL = "every 10s [document.visibilityState === 'visible']"


def _etag(kind: str, version: int | None, request: HttpRequest) -> str | None:
    if version is None:
        return None  # unknown address: no ETag, and the view answers 404
    fragment = "f" if getattr(request, "htmx", False) else "p"
    target = getattr(getattr(request, "htmx", None), "target", None) or ""
    return f'"{kind}-{version}-{fragment}{target}-{get_language()}"'


def event_etag(request: HttpRequest, event_slug: str, **kwargs) -> str | None:
    version = Event.objects.filter(slug=event_slug).values_list("version", flat=True).first()
    return _etag("e", version, request)


def competition_etag(
    request: HttpRequest, event_slug: str, competition_slug: str, **kwargs
) -> str | None:
    version = (
        Competition.objects.filter(event__slug=event_slug, slug=competition_slug)
        .values_list("version", flat=True)
        .first()
    )
    return _etag("c", version, request)


def _revalidate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        # The browser must ask again every time (cheap with the ETag), never show a guess.
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ["HX-Request", "HX-Target", "Accept-Language", "Cookie"])
        return response

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def live_competition(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For public views taking ``event_slug`` and ``competition_slug``."""
    return _revalidate(condition(etag_func=competition_etag)(view))


def live_event(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For public views taking ``event_slug``."""
    return _revalidate(condition(etag_func=event_etag)(view))
