"""What every desk view shares: ``desk_view`` (login, the event's role, the competition from the
URL) and the error answers. The roles themselves: ``events.permissions``."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.cache import patch_cache_control
from django_htmx.http import HttpResponseClientRedirect

from events.common.http import AuthenticatedHttpRequest, HtmxHttpRequest
from events.errors import ServiceError
from events.formats import GameFormat
from events.models import Competition
from events.permissions import ALLOWED_ROLES, MANAGE, ensure_access
from events.selectors import competition_by_slugs
from events.services import AlreadySubmitted


def desk_view(
    game_format: GameFormat | None = None, *, allow: str = MANAGE
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """An organiser's page of one competition: login required, 403 for anyone whose role at the
    event is not in ``allow`` (MANAGE by default; SCOREKEEPER for result entry and correction),
    404 for an unknown competition or one of another format. The view receives
    ``(request, competition, **other_url_kwargs)``; ``request.desk_role`` is the user's role."""
    if allow not in ALLOWED_ROLES:
        raise ValueError(f"Unknown desk access {allow!r}.")

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapped(
            request: AuthenticatedHttpRequest, event_slug: str, competition_slug: str, **kwargs: Any
        ) -> HttpResponse:
            competition: Competition = competition_by_slugs(
                event_slug,
                competition_slug,
                format_key=game_format.key if game_format else None,
            )
            request.desk_role = ensure_access(competition.event, request.user, allow)
            response = view(request, competition, **kwargs)
            # Desk pages list e-mails and private links: no browser or proxy keeps them.
            patch_cache_control(response, no_store=True, private=True)
            return response

        wrapped.desk_access = allow  # type: ignore[attr-defined]
        return wrapped

    return decorator


def go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """After a button htmx confirmed first (``hx-confirm``): the browser goes to ``url`` either
    way (an htmx request would otherwise swap the whole page into the button's form)."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def json_error(exc: ServiceError) -> JsonResponse:
    """``{"error": "..."}`` with the status the error's class maps to."""
    return JsonResponse({"error": exc.text, "code": exc.code}, status=exc.http_status)


def already_received(request: HtmxHttpRequest, exc: ServiceError, url: str) -> HttpResponse:
    """A submission key sent again (the offline queue resending after a lost answer, a double
    click): nothing was done twice. Answer as the first post did, a redirect to its page (the
    stored one when the service kept it), with the note that it had already been received."""
    stored = getattr(exc, "url", "")
    if stored.startswith("/") and not stored.startswith("//"):
        url = stored
    messages.info(request, exc.text)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def already_submitted(request: HttpRequest, exc: AlreadySubmitted, fallback: str) -> HttpResponse:
    """A desk form sent twice (posted without htmx): say so, and show where the first post led."""
    messages.info(request, exc.text)
    url = exc.url if exc.url.startswith("/") and not exc.url.startswith("//") else fallback
    return redirect(url)
