"""What every app's views share: the request type, desk access, URL numbers, error answers."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import patch_cache_control
from django_htmx.middleware import HtmxDetails

from events.errors import ServiceError
from events.formats import GameFormat
from events.models import Competition
from events.selectors import competition_for_organiser


class HtmxHttpRequest(HttpRequest):
    """A request after django-htmx's middleware (``request.htmx``)."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request behind ``login_required``: its user is signed in."""

    user: User


def int_or_404(value: Any) -> int:
    """A number from a query string or form for a lookup: anything else is a 404."""
    try:
        number = int(value)
    except (TypeError, ValueError) as exc:
        raise Http404 from exc
    if not -(2**63) <= number < 2**63:
        raise Http404
    return number


def desk_view(
    game_format: GameFormat | None = None,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """An organiser's page of one competition: login required, 403 for anyone but its
    organisers, 404 for an unknown competition or one of another format. The view receives
    ``(request, competition, **other_url_kwargs)``."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapped(
            request: AuthenticatedHttpRequest, event_slug: str, competition_slug: str, **kwargs: Any
        ) -> HttpResponse:
            competition: Competition = competition_for_organiser(
                request.user,
                event_slug,
                competition_slug,
                format_key=game_format.key if game_format else None,
            )
            response = view(request, competition, **kwargs)
            # Desk pages list e-mails and private links: no browser or proxy keeps them.
            patch_cache_control(response, no_store=True, private=True)
            return response

        return wrapped

    return decorator


def json_error(exc: ServiceError) -> JsonResponse:
    """``{"error": "..."}`` with the status the error's class maps to."""
    return JsonResponse({"error": exc.text, "code": exc.code}, status=exc.http_status)
