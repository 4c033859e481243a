"""Two-factor login where it matters: the pages with people's addresses, fees and sign-up
lists open only for an account with a second factor (an authenticator app or a passkey), and
site staff open the admin only with one (``STAFF_TWO_FACTOR_REQUIRED``, on in production).

**Decided:** the rule follows the page, not the role: whoever can open such a page (a club's
owner or organiser, an event's owner or organiser) needs the second factor first, and a guest
scorekeeper, who never opens them, is never asked. A club's other desk pages (its events,
results, settings, people) open without it, so a new organiser can set up and invite before
turning it on; the desk tells them it is needed for the pages that hold personal data.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from allauth.mfa.models import Authenticator
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode

from events.models import ClubRole, EventRole

SECOND_FACTORS = (Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN)


def has_two_factor(user: Any) -> bool:
    """Whether the account has a second factor (recovery codes alone are not one)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return Authenticator.objects.filter(user_id=user.pk, type__in=SECOND_FACTORS).exists()


def needs_two_factor(user: Any) -> bool:
    """Whether the site asks ``user`` for a second factor before a page of personal data."""
    return bool(settings.TWO_FACTOR_REQUIRED) and not has_two_factor(user)


NEXT = "two_factor_next"  # the session's key: the page to go back to once it is on


def staff_needs_two_factor(user: Any) -> bool:
    """Whether site staff are sent to turn it on before a staff page (the admin, restoring a
    club's owner)."""
    return bool(settings.STAFF_TWO_FACTOR_REQUIRED) and not has_two_factor(user)


def desk_reminder(user: Any) -> bool:
    """Whether the desk reminds ``user`` to turn it on: they run a club or an event (so will
    open sign-up lists) and have no second factor. A guest scorekeeper is never reminded."""
    if not needs_two_factor(user):
        return False
    managing = ["owner", "organiser"]
    return (
        ClubRole.objects.filter(user=user, role__in=managing).exists()
        or EventRole.objects.filter(user=user, role__in=managing).exists()
    )


def two_factor_page(
    request: HttpRequest, wanted: str = "", status: int = 403, *, staff: bool = False
) -> HttpResponse:
    """The answer instead of a page of personal data: why, and the way to turn it on. The
    page asked for is kept, and the two-factor pages offer the way back to it."""
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts=None):
        request.session[NEXT] = wanted
    context = {"wanted": request.session.get(NEXT, ""), "staff": staff}
    response = render(request, "events/accounts/two_factor_needed.html", context, status=status)
    response["Cache-Control"] = "no-store, private"
    return response


class TwoFactorNeeded(Exception):
    """Raised by ``ensure_two_factor`` inside a view of ``personal_data(after_access=True)``."""


def ensure_two_factor(user: Any) -> None:
    """In a view of personal data, after its own access check (a wrong address stays a 404,
    another's event a 403): refuse an account without a second factor."""
    if needs_two_factor(user):
        raise TwoFactorNeeded


def personal_data(
    view: Callable[..., HttpResponse] | None = None, *, after_access: bool = False
) -> Any:
    """A view that shows or changes people's addresses, fees or sign-ups: for a signed-in
    account without a second factor, the page that asks for one instead. Checked on entry
    (under ``desk_view``, which checked access already), or, ``after_access=True``, where the
    view calls ``ensure_two_factor`` after checking access itself."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            wanted = request.get_full_path() if request.method == "GET" else ""
            try:
                if not after_access and request.user.is_authenticated:
                    ensure_two_factor(request.user)
                response = view(request, *args, **kwargs)
            except TwoFactorNeeded:
                return two_factor_page(request, wanted)
            if wanted and request.session.get(NEXT) == wanted:
                del request.session[NEXT]  # the way back was taken: the link goes
            return response

        wrapped.personal_data = True  # type: ignore[attr-defined]
        return wrapped

    return decorator(view) if view is not None else decorator


class StaffTwoFactorMiddleware:
    """Site staff without a second factor are sent to turn one on before the admin opens."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            settings.STAFF_TWO_FACTOR_REQUIRED
            and request.path.startswith(reverse("admin:index"))
            and getattr(request, "user", None) is not None
            and request.user.is_authenticated
            and request.user.is_staff
            and staff_needs_two_factor(request.user)
        ):
            wanted = request.get_full_path() if request.method == "GET" else ""
            return redirect(
                f"{reverse('accounts:two_factor_needed')}?"
                + urlencode({"next": wanted, "staff": "1"})
            )
        return self.get_response(request)
