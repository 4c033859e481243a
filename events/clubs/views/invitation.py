"""The page an invitation's link opens: the club, who invites and with which role; signed in
with the invited address, one button joins; otherwise the ways to log in or sign up with it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from events.accounts.adapter import INVITED
from events.clubs import invitations
from events.errors import ServiceError

INVITED_FOR = timedelta(hours=1)


def _private(response: HttpResponse) -> HttpResponse:
    # The link is a secret: no cache keeps the page, no search engine lists it, and the next
    # page's Referer carries only the origin (not no-referrer: Chromium then posts the form
    # with "Origin: null", which the CSRF check refuses).
    response["Cache-Control"] = "no-store, private"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "strict-origin"
    return response


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    found = invitations.open_invitation(token)
    if found is None:
        context: dict[str, Any] = {"gone": invitations.GONE}
        return _private(render(request, "events/clubs/invitation.html", context, status=404))
    here = request.path
    error = ""
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?{urlencode({'next': here})}")
        try:
            role = invitations.invitation_accept(token=token, user=request.user)
        except ServiceError as exc:
            error, status = exc.text, exc.http_status
        else:
            messages.success(
                request,
                _("Welcome to %(club)s: you are %(role)s there now.")
                % {"club": role.club.name, "role": role.get_role_display()},
            )
            return redirect("events:club_desk", role.club.slug)
    if not request.user.is_authenticated:
        # Following the link proves the mailbox: a sign-up with this address needs no second
        # verification, and sign-up stays open to it where the site closed it to others.
        # Its address only, and for an hour at most (never past the invitation's own end).
        until = min(found.expires_at, timezone.now() + INVITED_FOR)
        request.session[INVITED] = {"email": found.email, "until": until.isoformat()}
    context = {
        "invitation": found,
        "masked": invitations.masked(found.email),
        "error": error,
        "verified": request.user.is_authenticated
        and invitations.address_verified(request.user, found.email),
        "login_url": f"{reverse('account_login')}?{urlencode({'next': here})}",
        "signup_url": reverse("account_signup")
        + "?"
        + urlencode({"next": here, "email": found.email}),
    }
    return _private(render(request, "events/clubs/invitation.html", context, status=status))
