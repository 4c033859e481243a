"""Which language a visitor reads, and which language a player's e-mails are in.

The order, first match wins:

1. the visitor's own choice: the language switcher's cookie (``settings.LANGUAGE_COOKIE_NAME``,
   set by :func:`language_switch`, the footer's links, or Django's ``set_language``, for
   anonymous visitors too);
2. the browser's ``Accept-Language``, when it names one of ``settings.LANGUAGES``;
3. on a public page of an event (an address with ``event_slug``: the event, its
   competitions and players; not the desk, whose organisers choose for themselves), the
   event's ``language``; on a player's private page (a format's ``GameFormat.player_pages``,
   see :func:`player_pages`), the player's preferred language, then their event's;
4. ``settings.LANGUAGE_CODE``.

Django's ``LocaleMiddleware`` does 1, 2 and 4. :class:`EventLanguageMiddleware` (after it)
does 3, in ``process_view``, only when neither 1 nor 2 applies: it reads the language with at
most one query, and an event's language from the shared cache (:data:`CACHE_SECONDS`,
forgotten whenever the event is saved), so a poll of a live page by such a visitor usually
costs no query either. Every answer varies on ``Accept-Language`` and ``Cookie``; the live
pages key their cached bodies and ETags on the active language (``events.live.pages``).

E-mails: :func:`mail_language` (the player's language, else the event's); the outbox
(``events.outbox.queue``) marks each message with ``Content-Language``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import FieldError
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import activate, get_language, get_supported_language_variant
from django.utils.translation.trans_real import language_code_re, parse_accept_lang_header
from django.views.decorators.http import require_safe

from events.formats import all_formats
from events.models import Entry, Event, Player

CACHE_SECONDS = 300
SLUG_MAX_LENGTH = Event._meta.get_field("slug").max_length or 60
# The organisers' pages follow their own choice (or browser), not the event's.
DESK_PREFIX = "/desk/"
_MISSING = "-"  # cached for an address that names no event
# Set on a view that reads its event's language itself (the live pages, events.live.pages): the
# middleware then leaves the slug on the request instead of reading the cache.
DEFERS_EVENT_LANGUAGE = "defers_event_language"
_DEFERRED = "_event_language_slug"
# The read API (events.api) is English for every client: no event's language to read.
READ_API_PREFIX = "/api/v1/"


@lru_cache(maxsize=1)
def player_pages() -> dict[str, tuple[str, str]]:
    """A player's private page (URL name) -> (the URL keyword, the ``Entry`` lookup it fills),
    from every registered format's ``player_pages``. The page is in that entry's player's
    language, else their event's. Built once per process: the registry is code, filled when
    the apps are ready, before any request."""
    return {
        view_name: (keyword, lookup)
        for game_format in all_formats()
        for view_name, keyword, lookup in game_format.player_pages
    }


def codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def supported(code: str | None) -> str | None:
    """``code`` as one of the site's languages ("sv-SE" -> "sv"), or None."""
    if not code or not language_code_re.search(code):
        return None
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return None


def chosen_language(request: HttpRequest) -> str | None:
    """The visitor's own language: the switcher's cookie, else the first language of the
    browser's ``Accept-Language`` that is one of ours; None when neither says."""
    language = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if language:
        return language
    for accepted, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if accepted == "*":
            break
        language = supported(accepted)
        if language:
            return language
    return None


def _event_key(slug: str) -> str:
    return f"lang:e:{slug}"


def event_language(slug: str) -> str | None:
    """The language of the event at ``slug`` (None: no such event): from the shared cache,
    else one query (which fills it; with the cache down, the query alone). No process keeps
    its own copy: an edit on one server is seen by every other at once."""
    if len(slug) > SLUG_MAX_LENGTH:  # no event has such an address (and no cache key fits it)
        return None
    language: Any = cache.get(_event_key(slug))
    return event_language_from(language, slug)


def event_language_key(slug: str) -> str | None:
    """The cache key of the language of the event at ``slug`` (None for an impossible one)."""
    return _event_key(slug) if len(slug) <= SLUG_MAX_LENGTH else None


def event_language_from(cached: Any, slug: str) -> str | None:
    """The event's language from the value read under :func:`event_language_key` (None: a
    miss, then one query, which fills the cache)."""
    if cached is None and len(slug) <= SLUG_MAX_LENGTH:
        cached = (
            Event.objects.filter(slug=slug).values_list("language", flat=True).first() or _MISSING
        )
        cache.set(_event_key(slug), cached, CACHE_SECONDS)
    return None if cached in (None, _MISSING) else str(cached)


def forget_event(slug: str) -> None:
    """Drop the cached language of the event at ``slug``: now, and again after commit (a
    reader may have cached the old value meanwhile)."""
    key = _event_key(slug)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def _event_saved(sender: Any, instance: Event, **kwargs: Any) -> None:
    forget_event(instance.slug)


post_save.connect(_event_saved, sender=Event, dispatch_uid="events_language_saved")
post_delete.connect(_event_saved, sender=Event, dispatch_uid="events_language_deleted")


def _player_page_language(view_name: str, kwargs: dict[str, Any]) -> str | None:
    keyword, lookup = player_pages()[view_name]
    if keyword not in kwargs:
        return None
    try:
        row = (
            Entry.objects.filter(**{lookup: kwargs[keyword]})
            .values_list("player__language", "competition__event__language")
            .first()
        )
    except (FieldError, ValueError):  # a lookup the models lack; a value of another type
        return None
    if row is None:
        return None
    return row[0] or row[1]


def page_language(request: HttpRequest, kwargs: dict[str, Any]) -> str | None:
    """The language a page under an event is in for a visitor without a language of their
    own: the player's or event's (see the module's docstring); None elsewhere."""
    if request.path_info.startswith(DESK_PREFIX):
        return None
    match = getattr(request, "resolver_match", None)
    view_name = match.view_name if match is not None else ""
    if view_name in player_pages():
        language = _player_page_language(view_name, kwargs)
    elif isinstance(kwargs.get("event_slug"), str):
        language = event_language(kwargs["event_slug"])
    else:
        return None
    return supported(language)


def plain_language_cookie(request: HttpRequest) -> bool:
    """No language cookie, or one, named and valued exactly as the switcher sets it.

    A shared cache in front decides the language from the raw header (deploy/nginx/: the
    first cookie of that name in any case, its value as sent); Django takes the last one,
    unquoted, and accepts variants. Only where the two cannot differ may an answer be kept
    for others: :class:`EventLanguageMiddleware` makes a public answer to any other cookie
    private (a cache keyed on its language would otherwise store one language under
    another's key).
    """
    name = settings.LANGUAGE_COOKIE_NAME.lower()
    found = [
        part.strip()
        for part in request.META.get("HTTP_COOKIE", "").split(";")
        if part.split("=", 1)[0].strip().lower() == name
    ]
    if not found:
        return True
    return len(found) == 1 and found[0] in {
        f"{settings.LANGUAGE_COOKIE_NAME}={code}" for code in codes()
    }


class EventLanguageMiddleware:
    """After Django's ``LocaleMiddleware``: pages of an event in the event's language for
    visitors who chose none and whose browser asks for none of ours."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path_info.startswith(READ_API_PREFIX):  # the API reads no cookie
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            if "public" in response.get("Cache-Control", "") and not plain_language_cookie(request):
                _private(response)
        return response

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        if request.path_info.startswith(READ_API_PREFIX) or chosen_language(request) is not None:
            return None
        deferring = getattr(view_func, DEFERS_EVENT_LANGUAGE, False)
        if deferring and follows_event_language(request, view_kwargs):
            # A live page reads the event's language in its own cache round trip
            # (events.live.pages).
            setattr(request, _DEFERRED, view_kwargs["event_slug"])
            return None
        activate_event_language(request, page_language(request, view_kwargs))
        return None


SHARED_ONLY = ("public", "s-maxage", "stale-while-revalidate")


def _private(response: HttpResponse) -> None:
    """A public answer made private: what only shared caches read goes with ``public``."""
    kept = [
        directive.strip()
        for directive in response["Cache-Control"].split(",")
        if directive.split("=", 1)[0].strip().lower() not in SHARED_ONLY
    ]
    response["Cache-Control"] = ", ".join([*kept, "private"])


def follows_event_language(request: HttpRequest, kwargs: dict[str, Any]) -> bool:
    """A page that follows its event's language (3.), not a player's or the desk's."""
    match = getattr(request, "resolver_match", None)
    return (
        isinstance(kwargs.get("event_slug"), str)
        and not request.path_info.startswith(DESK_PREFIX)
        and (match is None or match.view_name not in player_pages())
    )


def deferred_event_language(request: HttpRequest) -> str | None:
    """The slug of the event whose language this request follows, when the middleware left
    reading it to the view (a view marked with :data:`DEFERS_EVENT_LANGUAGE`)."""
    slug = getattr(request, _DEFERRED, None)
    return slug if isinstance(slug, str) else None


def activate_event_language(request: HttpRequest, language: str | None) -> None:
    """Make ``language`` (when it is one of ours) the request's language."""
    language = supported(language)
    if language and language != get_language():
        activate(language)
        request.LANGUAGE_CODE = language


# --- e-mail ----------------------------------------------------------------------------------


def mail_language(player: Player, event: Event) -> str:
    """The language of an e-mail to ``player`` about ``event``: theirs, else the event's."""
    return supported(player.language) or supported(event.language) or settings.LANGUAGE_CODE


@require_safe
def language_switch(request: HttpRequest, code: str) -> HttpResponse:
    """The footer's language links: set the language cookie and go back to ``next`` (an address
    of this site only; the front page otherwise). A GET, so that a public page needs no CSRF
    token for it; never stored by a browser or proxy."""
    language = supported(code)
    if language is None or language != code:
        raise Http404
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
    )
    patch_cache_control(response, no_store=True, private=True)
    return response
