"""A still-current poll of a live page answered ``304`` before Django's middleware (issue 15).

Most requests to the site are phones polling a live page with the ETag of what they show;
nearly all of them are answered ``304 Not Modified``. Django's full request cycle (sixteen
middleware, signals, the response machinery) costs more than the answer itself, so
:class:`NotModifiedFirst`, the WSGI application of ``config/wsgi.py``, answers those polls
itself when it can prove Django would answer ``304`` too, and hands everything else to Django.

It answers only when all of these hold, each decided by the code Django's path uses:

- a ``GET`` or ``HEAD`` with ``If-None-Match``, to an allowed host, not refused by
  ``HostileInputMiddleware``, not redirected to HTTPS by ``SecurityMiddleware``;
- the address resolves to a live page (``events.live.pages.competition_page`` or ``event_page``);
- the visitor is anonymous (no session, no pending messages);
- the page's language is the visitor's own choice, or the event's language read from the
  shared cache (a player's private page without a chosen language goes to Django);
- the version stamp is in the shared cache (``LIVE_VERSIONS_IN_CACHE``: never a cache local to
  one process), read in the same round trip as the event's language;
- the ETag built from them by ``events.live.pages`` (the same function) matches ``If-None-Match``.

Anything else, any error included, and the request goes to Django as if this did not exist.
The answer carries what Django's ``304`` carries for a cache: ``ETag``, ``Cache-Control``,
``Vary``, ``Content-Language``; the security headers came with the ``200`` the browser keeps.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.security import SecurityMiddleware
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_vary_headers
from django_htmx.middleware import HtmxDetails

from events import language, versions
from events.common.middleware import HostileInputMiddleware
from events.live import pages as live

logger = logging.getLogger(__name__)

StartResponse = Callable[..., Any]
_SAFE = ("GET", "HEAD")


def _not_called(request: HttpRequest) -> HttpResponse:  # the middleware's next layer: unused
    raise AssertionError("only the middleware's checks are used here")


_hostile = HostileInputMiddleware(_not_called)


def not_modified(environ: dict[str, Any]) -> HttpResponse | None:
    """Django's ``304`` for this request, when it is sure to be one (see the module's
    docstring); None: let Django answer."""
    if environ.get("REQUEST_METHOD") not in _SAFE or not environ.get("HTTP_IF_NONE_MATCH"):
        return None
    if not versions.in_cache():
        return None
    request = WSGIRequest(environ)
    request.get_host()  # DisallowedHost for a host not served: Django answers it
    # (SecurityMiddleware reads its settings when built: built here, so that they are current.)
    if _hostile.refuses(request) or SecurityMiddleware(_not_called).process_request(request):
        return None
    if not live.anonymous_visitor(request):
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    kind = getattr(match.func, live.LIVE_KIND, None)
    if kind not in (versions.COMPETITION, versions.EVENT):
        return None
    kwargs = match.kwargs
    slugs = (
        (kwargs["event_slug"], kwargs["competition_slug"])
        if kind == versions.COMPETITION
        else (kwargs["event_slug"],)
    )
    request.resolver_match = match
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    stamp_key = versions.stamp_key(kind, slugs)
    chosen = language.chosen_language(request)
    language_key = None
    if chosen is None:
        if not language.follows_event_language(request, kwargs):
            return None  # a player's page in the player's language: Django reads it
        language_key = language.event_language_key(kwargs["event_slug"])
        if language_key is None:
            return None
    found = versions.cached([key for key in (stamp_key, language_key) if key])
    stamp = found.get(stamp_key)
    if stamp is None:
        return None
    if chosen is None:
        cached_language = found.get(language_key) if language_key else None
        if cached_language is None:
            return None  # Django reads it from the database and fills the cache
        page_language = language.supported(
            language.event_language_from(cached_language, kwargs["event_slug"])
        ) or translation.get_supported_language_variant(settings.LANGUAGE_CODE)
    else:
        page_language = chosen
    with translation.override(page_language):
        etag = live.etag_of(kind, stamp, request)
    response = get_conditional_response(request, etag=etag)
    if response is None or response.status_code != 304:
        return None
    response = live.finish(response, etag)
    # What LocaleMiddleware and EventLanguageMiddleware add to every answer.
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    response.headers.setdefault("Content-Language", page_language)
    return response


class NotModifiedFirst:
    """WSGI: :func:`not_modified` first, else the Django application."""

    def __init__(self, application: Callable[[dict[str, Any], StartResponse], Any]) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        try:
            response = not_modified(environ)
        except Exception:  # never an error here: Django answers, and reports its own errors
            logger.debug("304 fast path skipped", exc_info=True)
            response = None
        if response is None:
            return self.application(environ, start_response)
        start_response("304 Not Modified", list(response.items()))
        return []
