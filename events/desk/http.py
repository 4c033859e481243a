"""What every app's views share: the request type, desk access, URL numbers, error answers."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.cache import patch_cache_control
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from events.errors import ServiceError
from events.formats import GameFormat
from events.models import Competition, Event, EventRole
from events.selectors import competition_by_slugs


class HtmxHttpRequest(HttpRequest):
    """A request after django-htmx's middleware (``request.htmx``)."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request behind ``login_required``: its user is signed in."""

    user: User
    desk_role: str  # set by ``desk_view``: the user's EventRole.Role at the event


def int_or_404(value: Any) -> int:
    """A number from a query string or form for a lookup: anything else is a 404."""
    try:
        number = int(value)
    except (TypeError, ValueError) as exc:
        raise Http404 from exc
    if not -(2**63) <= number < 2**63:
        raise Http404
    return number


# Who may use a desk page. Every desk view names one (``desk_view`` defaults to MANAGE, so a
# new page is closed to scorekeepers until someone decides otherwise);
# tests/test_permissions_matrix.py holds the table of every desk URL and checks each role.
SCOREKEEPER = "results"  # entering and correcting results: scorekeepers, organisers, owners
MANAGE = "manage"  # everything else on the desk: organisers and owners
OWNER = "owner"  # who runs the event (adding and removing people): owners only

ALLOWED_ROLES: dict[str, frozenset[str]] = {
    SCOREKEEPER: frozenset(EventRole.Role.values),
    MANAGE: EventRole.MANAGERS,
    OWNER: frozenset({EventRole.Role.OWNER}),
}


def ensure_access(event: Event, user: Any, allow: str = MANAGE) -> str:
    """The user's role at ``event`` if it may do what ``allow`` names; 403 otherwise (one query).
    A superuser is an owner of every event; staff without a role is refused like anyone."""
    role = event.role_of(user)
    if role is None or role not in ALLOWED_ROLES[allow]:
        raise PermissionDenied
    return role


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
