"""The live mechanism of public pages: ETags from versions, shared fragments, polling.

Every write bumps ``Competition.version`` and ``Event.version`` (``services.competition_touch``,
the only place that does). A public page is written as a context builder decorated with
:func:`competition_page` (or :func:`event_page`), which

- resolves the competition from the URL (404 for an unknown one or one of another format),
- answers ``304 Not Modified`` while the version, page/fragment choice, htmx target and
  language are unchanged, for one query,
- renders the whole page, or for an htmx poll only its ``live`` partial, with ``event``,
  ``competition`` and ``poll`` (empty once the competition is finished, so polling stops),
- keeps the rendered poll fragment in the shared cache under its version, so a room of phones
  renders it once per change (unless the page says ``shared=False``, e.g. a ticking clock);
  a cache that is down is skipped, never an error.

Templates wrap their live part in ``{% live_section "id" %}…{% endlive_section %}``
(``events/templatetags/live.py``) inside ``{% partialdef live inline %}``.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_safe

from events.formats import GameFormat
from events.models import Competition, Event
from events.selectors import competition_by_slugs, event_with_competitions

logger = logging.getLogger(__name__)

# Polls of a hidden tab are cancelled by static/js/site.js (htmx runs without eval under the
# Content-Security-Policy, so a trigger filter such as [document.visibilityState...] cannot run).
POLL = "every 10s"
FRAGMENT = "live"  # the partial every live template defines
FRAGMENT_SECONDS = 3600
MAX_CACHED_PATH = 300  # longer addresses are rendered, not cached (no one fills the cache)

Context = dict[str, Any]


def _etag(kind: str, version: int | None, request: HttpRequest) -> str | None:
    if version is None:
        return None  # unknown address: no ETag, and the view answers 404
    fragment = "f" if getattr(request, "htmx", False) else "p"
    target = getattr(getattr(request, "htmx", None), "target", None) or ""
    return f'"{kind}-{version}-{fragment}{target}-{get_language()}"'


def event_etag(request: HttpRequest, event_slug: str, **kwargs: Any) -> str | None:
    version = Event.objects.filter(slug=event_slug).values_list("version", flat=True).first()
    return _etag("e", version, request)


def competition_etag(
    request: HttpRequest, event_slug: str, competition_slug: str, **kwargs: Any
) -> str | None:
    version = (
        Competition.objects.filter(event__slug=event_slug, slug=competition_slug)
        .values_list("version", flat=True)
        .first()
    )
    return _etag("c", version, request)


def _revalidate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        # The browser must ask again every time (cheap with the ETag), never show a guess.
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ["HX-Request", "HX-Target", "Accept-Language", "Cookie"])
        return response

    return wrapped


def live_competition(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """ETag and revalidation for a view taking ``event_slug`` and ``competition_slug``."""
    return _revalidate(condition(etag_func=competition_etag)(view))


def live_event(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """ETag and revalidation for a view taking ``event_slug``."""
    return _revalidate(condition(etag_func=event_etag)(view))


def poll_for(competition: Competition) -> str:
    """The htmx trigger of a live section: poll while the competition can still change."""
    return "" if competition.is_finished else POLL


# --- shared fragments ------------------------------------------------------------------------


def _fragment_key(request: HttpRequest, kind: str, owner: Competition | Event) -> str | None:
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None  # a signed-in organiser may see more than a player: render for them
    path = request.get_full_path()
    if len(path) > MAX_CACHED_PATH:
        return None
    target = getattr(request.htmx, "target", None) or ""  # type: ignore[attr-defined]
    # The creation time keeps a recreated competition with a reused id from meeting old entries.
    created = owner.created_at.timestamp()
    where = hashlib.sha256(f"{path}|{target}".encode()).hexdigest()[:24]
    return f"live:{kind}:{owner.pk}:{created}:{owner.version}:{get_language()}:{where}"


def _cache_get(key: str) -> str | None:
    try:
        html: str | None = cache.get(key)
    except Exception:  # the cache is an optimisation: a dead Redis must not take pages down
        logger.warning("live fragment cache unavailable (get)", exc_info=True)
        return None
    return html


def _cache_set(key: str, html: str) -> None:
    try:
        cache.set(key, html, FRAGMENT_SECONDS)
    except Exception:
        logger.warning("live fragment cache unavailable (set)", exc_info=True)


def render_live(
    request: HttpRequest,
    template: str,
    build: Callable[[], Context | HttpResponse],
    *,
    base: Context,
    key: str | None,
) -> HttpResponse:
    """The page, or for an htmx request its ``live`` partial (shared under ``key``)."""
    if not getattr(request, "htmx", False):
        context = build()
        if isinstance(context, HttpResponse):
            return context
        return render(request, template, {**base, **context})
    html = _cache_get(key) if key else None
    if html is None:
        context = build()
        if isinstance(context, HttpResponse):
            return context
        html = render_to_string(f"{template}#{FRAGMENT}", {**base, **context}, request)
        if key:
            _cache_set(key, html)
    return HttpResponse(html)


def competition_page(
    template: str, *, game_format: GameFormat | None = None, shared: bool = True
) -> Callable[[Callable[..., Context | HttpResponse]], Callable[..., HttpResponse]]:
    """A public, live page of one competition.

    The decorated function takes ``(request, competition, **url_kwargs)`` and returns the
    template's context (or a response, e.g. a redirect); ``event``, ``competition`` and
    ``poll`` are added. ``game_format``: 404 for a competition of another format.
    ``shared=False`` for pages whose fragment changes with time alone (a running clock).
    """

    def decorator(build: Callable[..., Context | HttpResponse]) -> Callable[..., HttpResponse]:
        @require_safe
        @live_competition
        @wraps(build)
        def view(
            request: HttpRequest, event_slug: str, competition_slug: str, **kwargs: Any
        ) -> HttpResponse:
            competition = competition_by_slugs(
                event_slug, competition_slug, format_key=game_format.key if game_format else None
            )
            base = {
                "event": competition.event,
                "competition": competition,
                "poll": poll_for(competition),
            }
            key = _fragment_key(request, "c", competition) if shared else None
            return render_live(
                request, template, lambda: build(request, competition, **kwargs), base=base, key=key
            )

        return view

    return decorator


def event_page(
    template: str,
) -> Callable[[Callable[..., Context | HttpResponse]], Callable[..., HttpResponse]]:
    """A public, live page of one event: like :func:`competition_page`, with ``event`` only.

    The builder sets ``poll`` itself (an event polls while any competition is unfinished).
    """

    def decorator(build: Callable[..., Context | HttpResponse]) -> Callable[..., HttpResponse]:
        @require_safe
        @live_event
        @wraps(build)
        def view(request: HttpRequest, event_slug: str, **kwargs: Any) -> HttpResponse:
            event = event_with_competitions(event_slug)
            key = _fragment_key(request, "e", event)
            return render_live(
                request,
                template,
                lambda: build(request, event, **kwargs),
                base={"event": event, "poll": POLL},
                key=key,
            )

        return view

    return decorator
