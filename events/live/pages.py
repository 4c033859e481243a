"""The live mechanism of public pages: ETags from versions, cached bodies, polling.

Every write bumps ``Competition.version`` and ``Event.version`` (``events.versions``, through
``services.competition_touch``), and after commit writes them into the shared cache. A public
page is written as a context builder decorated with :func:`competition_page` (or
:func:`event_page`), which

- answers ``304 Not Modified`` while the version, page/fragment choice, htmx target, language
  (and, for a signed-in browser, its session) are unchanged: the version comes from the shared
  cache, so an anonymous poll costs no database query (one query where the cache is not
  shared, or after a miss, which fills it). This runs in the view, behind the whole middleware
  stack: there is one request path, and a middleware added later applies to every answer;
- otherwise serves the body rendered for this version from the cache (anonymous visitors;
  keyed by address, language, host, page or fragment and htmx target; labelled with the
  version it was rendered at, so a body of another version is never served): one cache read,
  and the same round trip as the version's. The body is stored gzip-compressed, once per
  version, and sent as stored (inflated for the rare client that takes no gzip);
- otherwise resolves the competition from the URL (404 for an unknown one or one of another
  format), renders the whole page, or for an htmx poll only its ``live`` partial, with
  ``event``, ``competition`` and ``poll`` (empty once the competition is finished, so polling
  stops), and keeps the body for the next visitor (``shared=False`` opts out, for a body that
  changes with time alone);
- treats a cache that is down as a miss, never an error.

Signed-in organisers may see more than a player: requests that carry a session (or pending
messages) are rendered for them, never from or into the shared bodies. A shared body is the
same bytes for every anonymous visitor: it is rendered with ``public_body`` set, so the page
carries no CSRF token (``templates/base.html`` leaves out the htmx header, and the language
switch is a plain link to ``events.language.language_switch``), and it sets no cookie.

Templates wrap their live part in ``{% live_section "id" %}…{% endlive_section %}``
(``events/templatetags/live.py``) inside ``{% partialdef live inline %}``.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import time
import zlib
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from events import language, versions
from events.formats import GameFormat
from events.models import Competition, Event
from events.selectors import competition_by_slugs, event_with_competitions
from events.series.models import Series

# Polls of a hidden tab are cancelled by static/js/site.js (htmx runs without eval under the
# Content-Security-Policy, so a trigger filter such as [document.visibilityState...] cannot run).
POLL = "every 10s"
FRAGMENT = "live"  # the partial every live template defines
BODY_SECONDS = 3600
MAX_CACHED_PATH = 300  # longer addresses are rendered, not cached (no one fills the cache)
# The key prefix of cached bodies: gzip bytes. A new prefix whenever what is stored changes, so
# that during a rolling deploy no server reads what another version of the code wrote.
BODY_PREFIX = "live:z"
GZIP_LEVEL = 6  # zlib's default: the 570 kB round-robin tables pack to 25 kB, once per version
# Single flight: a request renders a version's body while it holds a claim of at most this
# many seconds (a render that dies lets the next request render); without a body of the
# version before to answer with, the others wait for it up to RENDER_WAIT_SECONDS, looking
# every RENDER_WAIT_STEP.
RENDER_SECONDS = 10
RENDER_WAIT_SECONDS = 2.0
RENDER_WAIT_STEP = 0.025
MESSAGES_COOKIE = "messages"  # django.contrib.messages' cookie storage
_SAFE_TARGET = re.compile(r"^[\w-]{0,60}$")
_REFUSED = re.compile(r"q\s*=\s*0(\.0{0,3})?")
# Set on each live view: which version its ETag follows.
LIVE_KIND = "live_kind"

Context = dict[str, Any]
Owner = Competition | Event | Series


def poll_for(competition: Competition) -> str:
    """The htmx trigger of a live section: poll while the competition can still change."""
    return "" if competition.is_finished else POLL


def anonymous_visitor(request: HttpRequest) -> bool:
    """No session and no pending messages: the page is the same for every such visitor."""
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and MESSAGES_COOKIE not in cookies


def _target(request: HttpRequest) -> str:
    target = getattr(getattr(request, "htmx", None), "target", None) or ""
    if _SAFE_TARGET.match(target):
        return target
    return hashlib.sha256(target.encode()).hexdigest()[:16]


def etag_of(kind: str, stamp: int, request: HttpRequest) -> str:
    pk, created, version = versions.stamp_parts(stamp)
    fragment = "f" if getattr(request, "htmx", False) else "p"
    # A signed-in browser's page may differ from a player's: its ETags are its own.
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    viewer = "-s" + hashlib.sha256(session.encode()).hexdigest()[:12] if session else ""
    encoding = "-z" if _gzip(request) else ""  # gzip and plain text are two representations
    where = f"{fragment}{_target(request)}-{get_language()}{viewer}{encoding}"
    return f'"{kind}-{pk}.{version}.{created}-{where}"'


def _body_key(request: HttpRequest, kind: str) -> str | None:
    path = request.get_full_path()
    if len(path) > MAX_CACHED_PATH:
        return None
    fragment = "f" if getattr(request, "htmx", False) else "p"
    where = f"{request.get_host()}|{path}|{fragment}|{_target(request)}|{get_language()}"
    return f"{BODY_PREFIX}:{kind}:{hashlib.sha256(where.encode()).hexdigest()[:32]}"


def finish(
    request: HttpRequest,
    response: HttpResponse,
    etag: str | None,
    *,
    shared: bool = False,
    how: str = "",
) -> HttpResponse:
    """The caching headers of a live answer.

    Every browser asks again each time (``max-age=0``; cheap with the ETag). A ``shared``
    answer, the same bytes for every anonymous visitor who sends the same language, htmx
    headers and encoding, may also be held by a shared cache (nginx, a CDN) for
    ``LIVE_SHARED_SECONDS`` and served stale for ``LIVE_STALE_SECONDS`` more while it fetches
    the next (RFC 9111 ``s-maxage``, RFC 5861 ``stale-while-revalidate``). The stale window
    is shorter than a poll, so a browser polling every 10 s never takes it for itself. Any
    other answer (a signed-in browser's, a stale body served during a render) is ``private``.

    ``how`` the answer was made goes out as ``Server-Timing: live;desc=...`` (a browser's
    developer tools show it; bench/shared_cache.py counts renders by it): ``304``, ``stored``
    (the stored body), ``render``, ``before`` (the version before, while another request
    renders this one) or ``waited`` (this version, once another request
    stored it).
    """
    if how:
        response.headers["Server-Timing"] = f"live;desc={how}"
    if shared and response.status_code in (200, 304):
        patch_cache_control(
            response,
            public=True,
            max_age=0,
            s_maxage=settings.LIVE_SHARED_SECONDS,
            stale_while_revalidate=settings.LIVE_STALE_SECONDS,
        )
    else:
        patch_cache_control(response, no_cache=True, private=True)
    # Only what changes the bytes: the language (a browser's or the switcher's cookie; the
    # session cookie makes the answer private), a fragment or the page, and for a fragment
    # the element it replaces, gzip or not.
    htmx = getattr(request, "htmx", False)
    vary = ["Accept-Language", "Cookie", "Accept-Encoding", "HX-Request"]
    patch_vary_headers(response, [*vary, "HX-Target"] if htmx else vary)
    if etag and response.status_code in (200, 304):
        response.headers.setdefault("ETag", etag)
    return response


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (named, and not with ``q=0``)."""
    for item in accept_encoding.split(","):
        coding, *parameters = (part.strip().lower() for part in item.split(";"))
        if coding == "gzip":
            return not any(_REFUSED.fullmatch(parameter) for parameter in parameters)
    return False


def _gzip(request: HttpRequest) -> bool:
    return accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))


def pack(html: str) -> bytes:
    """A body as stored: gzip, with no name and no time in its header (the same bytes for the
    same page)."""
    return gzip.compress(html.encode(), compresslevel=GZIP_LEVEL, mtime=0)


def _serve(request: HttpRequest, packed: bytes) -> HttpResponse:
    """A stored body as stored when the client takes gzip, else inflated."""
    if _gzip(request):
        response = HttpResponse(packed)
        response.headers["Content-Encoding"] = "gzip"
        return response
    return HttpResponse(zlib.decompress(packed, wbits=31))


def live_response(
    request: HttpRequest,
    kind: str,
    slugs: Sequence[str],
    load: Callable[[], tuple[Owner, Context]],
    build: Callable[[Owner], Context | HttpResponse],
    template: str,
    *,
    shared: bool = True,
) -> HttpResponse:
    """A live page or fragment: 304, cached body, or a render (see the module's docstring).

    ``load`` resolves the owner (a competition or an event) and the template's base context,
    raising ``Http404``; ``build`` adds the page's own context (or returns a response).
    """
    anonymous = shared and anonymous_visitor(request)
    # what a shared cache in front may keep (events.language makes it private again for a
    # language cookie such a cache could read otherwise)
    public = anonymous
    stamp_key = versions.stamp_key(kind, slugs) if versions.in_cache() else None
    # The event's language, for a visitor who chose none, is read in the same round trip as
    # the version (events.language defers it to here); the body's key depends on it.
    language_slug = language.deferred_event_language(request)
    language_key = language.event_language_key(language_slug) if language_slug else None
    # A poll that carries an ETag is answered 304 far more often than not: the body is only
    # fetched when it is needed.
    body_now = anonymous and not language_key and "HTTP_IF_NONE_MATCH" not in request.META
    body_key = _body_key(request, kind) if body_now else None
    found = versions.cached([key for key in (stamp_key, language_key, body_key) if key])
    if language_slug is not None:
        language.activate_event_language(
            request,
            language.event_language_from(
                found.get(language_key) if language_key else None, language_slug
            ),
        )
    stamp = found.get(stamp_key) if stamp_key else None
    if stamp is None:
        stamp = versions.stamp_from_database(kind, slugs)
        if stamp is not None:
            versions.fill(kind, slugs, stamp)
    etag = etag_of(kind, stamp, request) if stamp is not None else None
    claimed = False
    if etag is not None and stamp is not None:
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return finish(request, not_modified, etag, shared=public, how="304")
        if anonymous and not body_now:
            body_key = _body_key(request, kind)
            if body_key:
                found = versions.cached([body_key])
        body = _stored(found.get(body_key) if body_key else None)
        if body is not None and body[0] == stamp:
            return finish(request, _serve(request, body[1]), etag, shared=public, how="stored")
        if body_key is not None:
            # One render per version, whoever asks (single flight): the first request claims
            # it; the others answer with the body of the version before, or wait for this one.
            claimed = _claim(body_key, stamp)
            if claimed:
                # A render that ended between this request's read and its claim stored it.
                again = _stored(versions.cached([body_key]).get(body_key))
                if again is not None and (again[0] == stamp or _earlier(stamp, again[0])):
                    _release(body_key, stamp)
                    fresh = etag_of(kind, again[0], request)
                    return finish(
                        request, _serve(request, again[1]), fresh, shared=public, how="stored"
                    )
            else:
                waited = _while_rendering(request, kind, stamp, body, body_key, public)
                if waited is not None:
                    return waited
    try:
        return _render(request, kind, load, build, template, etag, anonymous, public)
    finally:
        if claimed and body_key is not None and stamp is not None:
            _release(body_key, stamp)


def _render(
    request: HttpRequest,
    kind: str,
    load: Callable[[], tuple[Owner, Context]],
    build: Callable[[Owner], Context | HttpResponse],
    template: str,
    etag: str | None,
    anonymous: bool,
    public: bool,
) -> HttpResponse:
    owner, base = load()  # 404 here for an unknown address
    context = build(owner)
    if isinstance(context, HttpResponse):
        return finish(request, context, etag)
    rendered = versions.stamp_of(owner.pk, owner.created_at, owner.version)
    name = f"{template}#{FRAGMENT}" if getattr(request, "htmx", False) else template
    full = {**base, **context}
    body_key = _body_key(request, kind) if anonymous else None
    if body_key is None:
        html = render_to_string(name, full, request)
        return finish(request, HttpResponse(html), etag_of(kind, rendered, request), how="render")
    # The same bytes for every anonymous visitor: no CSRF token (a {% csrf_token %} renders
    # nothing), and base.html leaves out what only a signed-in page needs.
    html = render_to_string(
        name, {**full, "public_body": True, "csrf_token": "NOTPROVIDED"}, request
    )
    body = pack(html)
    # Labelled with the version read before the page's other queries: the body is at least
    # that new, so serving it for that version is never stale.
    try:
        cache.set(body_key, (rendered, body), BODY_SECONDS)
    except Exception:  # the cache is an optimisation: a dead Redis must not take pages down
        versions.logger.warning("live cache unavailable (set body)", exc_info=True)
    etag = etag_of(kind, rendered, request)
    return finish(request, _serve(request, body), etag, shared=public, how="render")


def _stored(value: Any) -> tuple[int, bytes] | None:
    """A stored body, ``(stamp, gzip bytes)``, or None."""
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], int)
        and isinstance(value[1], bytes)
    ):
        return value[0], value[1]
    return None


def _render_key(body_key: str, stamp: int) -> str:
    return f"{body_key}:r{stamp}"


def _claim(body_key: str, stamp: int) -> bool:
    """Whether this request renders the body of this version (no other request is)."""
    try:
        return bool(cache.add(_render_key(body_key, stamp), 1, RENDER_SECONDS))
    except Exception:
        versions.logger.warning("live cache unavailable (claim a render)", exc_info=True)
        return True


def _release(body_key: str, stamp: int) -> None:
    try:
        cache.delete(_render_key(body_key, stamp))
    except Exception:
        versions.logger.warning("live cache unavailable (release a render)", exc_info=True)


def _while_rendering(
    request: HttpRequest,
    kind: str,
    stamp: int,
    stale: tuple[int, bytes] | None,
    body_key: str,
    public: bool,
) -> HttpResponse | None:
    """The answer while another request renders this version: the version before, at once
    (a 304 for a client that holds it), or, with none stored, this version once the other
    request has stored it. None: render here (the other request ended or the cache is down).
    """
    if stale is not None and _earlier(stale[0], stamp):
        # Private, and never a 304: a shared cache revalidating its copy of the version before
        # would take a 304 as "still current" and keep it its seconds more; a 200 it may not
        # store leaves its copy expired, so its next request asks again.
        old_etag = etag_of(kind, stale[0], request)
        return finish(request, _serve(request, stale[1]), old_etag, how="before")
    render_key = _render_key(body_key, stamp)
    deadline = time.monotonic() + RENDER_WAIT_SECONDS
    while True:
        found = versions.cached([body_key, render_key])
        body = _stored(found.get(body_key))
        # this version, or a newer one the render read (stored under its own version)
        if body is not None and (body[0] == stamp or _earlier(stamp, body[0])):
            return finish(
                request,
                _serve(request, body[1]),
                etag_of(kind, body[0], request),
                shared=public,
                how="waited",
            )
        if render_key not in found or time.monotonic() > deadline:
            return None
        time.sleep(RENDER_WAIT_STEP)


def _earlier(stored: int, current: int) -> bool:
    """A stamp of the same owner (not of one deleted and made again) at an older version."""
    pk, created, version = versions.stamp_parts(stored)
    now_pk, now_created, now_version = versions.stamp_parts(current)
    return (pk, created) == (now_pk, now_created) and version < now_version


def competition_page(
    template: str, *, game_format: GameFormat | None = None, shared: bool = True
) -> Callable[[Callable[..., Context | HttpResponse]], Callable[..., HttpResponse]]:
    """A public, live page of one competition.

    The decorated function takes ``(request, competition, **url_kwargs)`` and returns the
    template's context (or a response, e.g. a redirect); ``event``, ``competition`` and
    ``poll`` are added. ``game_format``: 404 for a competition of another format.
    ``shared=False`` for pages whose body changes with time alone (a running clock).
    """

    def decorator(build: Callable[..., Context | HttpResponse]) -> Callable[..., HttpResponse]:
        @require_safe
        @wraps(build)
        def view(
            request: HttpRequest, event_slug: str, competition_slug: str, **kwargs: Any
        ) -> HttpResponse:
            def load() -> tuple[Owner, Context]:
                competition = competition_by_slugs(
                    event_slug,
                    competition_slug,
                    format_key=game_format.key if game_format else None,
                )
                base = {
                    "event": competition.event,
                    "competition": competition,
                    "poll": poll_for(competition),
                }
                return competition, base

            return live_response(
                request,
                versions.COMPETITION,
                (event_slug, competition_slug),
                load,
                lambda competition: build(request, competition, **kwargs),
                template,
                shared=shared,
            )

        setattr(view, language.DEFERS_EVENT_LANGUAGE, True)
        setattr(view, LIVE_KIND, versions.COMPETITION)
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
        @wraps(build)
        def view(request: HttpRequest, event_slug: str, **kwargs: Any) -> HttpResponse:
            def load() -> tuple[Owner, Context]:
                event = event_with_competitions(event_slug)
                return event, {"event": event, "poll": POLL}

            return live_response(
                request,
                versions.EVENT,
                (event_slug,),
                load,
                lambda event: build(request, event, **kwargs),
                template,
            )

        setattr(view, language.DEFERS_EVENT_LANGUAGE, True)
        setattr(view, LIVE_KIND, versions.EVENT)
        return view

    return decorator


def series_page(
    template: str, *, poll: str = POLL
) -> Callable[[Callable[..., Context | HttpResponse]], Callable[..., HttpResponse]]:
    """A public, live page of one series (``events.series``): like :func:`event_page`, with
    ``series``. Its version follows every write to its competitions (``events.versions``)."""

    def decorator(build: Callable[..., Context | HttpResponse]) -> Callable[..., HttpResponse]:
        @require_safe
        @wraps(build)
        def view(request: HttpRequest, series_slug: str, **kwargs: Any) -> HttpResponse:
            def load() -> tuple[Owner, Context]:
                series = Series.objects.filter(slug=series_slug).first()
                if series is None:
                    raise Http404
                return series, {"series": series, "poll": poll}

            return live_response(
                request,
                versions.SERIES,
                (series_slug,),
                load,
                lambda series: build(request, series, **kwargs),
                template,
            )

        setattr(view, LIVE_KIND, versions.SERIES)
        return view

    return decorator
