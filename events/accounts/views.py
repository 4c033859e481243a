"""The account's own pages beside allauth's: its overview, its deletion, and the page that asks
for a second factor before personal data opens."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from events.accounts import selectors, services
from events.accounts.forms import AccountDeleteForm
from events.accounts.twofactor import two_factor_page
from events.common.http import AuthenticatedHttpRequest
from events.errors import ServiceError
from events.services import attempts


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store, private"
    return response


@require_GET
@login_required
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    context = {"page": selectors.account_page(request.user)}
    return _private(render(request, "events/accounts/account.html", context))


@require_http_methods(["GET", "POST"])
@login_required
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        # Five tries an hour: a borrowed session must not guess the password here.
        if not attempts.take(f"account-delete:{request.user.pk}", limit=5, seconds=3600):
            form.add_error(None, _("Too many tries: wait an hour, then try again."))
            status = 429
        elif form.is_valid():
            try:
                services.account_delete(user=request.user, password=form.cleaned_data["password"])
            except ServiceError as exc:
                if hasattr(exc, "error_dict"):
                    form.add_error("password", exc.message_dict["password"][0])
                else:
                    form.add_error(None, exc.text)
            else:
                logout(request)
                messages.success(request, _("Your account is deleted."))
                return redirect("events:index")
    context = {"form": form, "last_owned": services.last_owned_clubs(request.user)}
    return _private(render(request, "events/accounts/delete.html", context, status=status))


@require_GET
@login_required
def two_factor_needed(request: HttpRequest) -> HttpResponse:
    staff = request.GET.get("staff") == "1" and request.user.is_staff
    return two_factor_page(request, request.GET.get("next", ""), status=200, staff=staff)
