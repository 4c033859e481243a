"""A club's desk pages: the clubs of the signed-in person (the switcher), a new club, a club's
home (its events), its settings, its people and their roles, and, for site staff, an owner
restored."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from events.accounts.services import two_factor_reset
from events.accounts.twofactor import needs_two_factor, staff_needs_two_factor, two_factor_page
from events.clubs import invitations, selectors, services
from events.clubs.forms import (
    ClubForm,
    InvitationForm,
    OwnerRestoreForm,
    RoleChangeForm,
    RoleGrantForm,
)
from events.clubs.http import ANYONE, MANAGERS, OWNERS, club_view
from events.common.http import AuthenticatedHttpRequest
from events.errors import ServiceError
from events.models import ClubRole, HostClub


def _private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_store=True, private=True)
    return response


@require_GET
@login_required
def club_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The clubs the person holds a role at: the desk's club switcher."""
    context = {
        "clubs": selectors.clubs_of(request.user),
        "ownerless": selectors.clubs_without_owner_count() if request.user.is_staff else 0,
    }
    return _private(render(request, "events/clubs/list.html", context))


@require_http_methods(["GET", "POST"])
@login_required
def club_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ClubForm(request.POST) if request.method == "POST" else ClubForm()
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                club = services.club_create(by=request.user, values=form.values())
            except ServiceError as exc:
                _errors_to(form, exc)
            else:
                messages.success(request, _("Club created. You are its owner."))
                return redirect("events:club_desk", club.slug)
    context = {"form": form, "title": _("New club")}
    return _private(render(request, "events/clubs/form.html", context, status=status))


def _errors_to(form: Any, exc: ServiceError) -> None:
    """A refusal beside the fields it names (a dict of messages), else above the form."""
    if hasattr(exc, "error_dict"):
        for field, texts in exc.message_dict.items():
            for text in texts:
                form.add_error(field if field in form.fields else None, text)
    else:
        form.add_error(None, exc.text)


@require_GET
@club_view(MANAGERS)
def club_desk(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    context = {
        "club": club,
        "role": request.club_role,  # type: ignore[attr-defined]
        "events": selectors.club_events_for_desk(club),
    }
    return render(request, "events/clubs/desk.html", context)


@require_http_methods(["GET", "POST"])
@club_view(OWNERS)
def club_settings(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    form = ClubForm.of(club)
    status = 200
    if request.method == "POST":
        form = ClubForm(request.POST, instance=HostClub.objects.get(pk=club.pk))
        status = 400
        if form.is_valid():
            try:
                services.club_update(
                    club=club,
                    by=request.user,
                    expected=form.cleaned_data.get("signature") or "",
                    values=form.values(),
                )
            except ServiceError as exc:
                if exc.code == "stale_edit":
                    club.refresh_from_db()
                    typed = {
                        str(form.fields[name].label): form.data.get(name, "")
                        for name in services.CLUB_FIELDS
                        if name in form.fields
                    }
                    form = ClubForm.of(club)
                    form.stale = exc.text  # type: ignore[attr-defined]
                    form.typed = typed  # type: ignore[attr-defined]
                    status = 409
                else:
                    _errors_to(form, exc)
            else:
                messages.success(request, _("The club's settings are saved."))
                return redirect("events:club_settings", club.slug)
    context = {
        "club": club,
        "form": form,
        "title": _("Settings of %(club)s") % {"club": club.name},
    }
    return render(request, "events/clubs/form.html", context, status=status)


def _people_page(
    request: AuthenticatedHttpRequest, club: HostClub, status: int = 200, **forms: Any
) -> HttpResponse:
    context = {
        "club": club,
        "role": request.club_role,  # type: ignore[attr-defined]
        "people": selectors.club_people(club),
        "history": selectors.role_history(club),
        "grant_form": forms.get("grant_form") or RoleGrantForm(),
        "invite_form": forms.get("invite_form") or InvitationForm(),
        "invitations": invitations.pending(club) if request.club_role in OWNERS else [],  # type: ignore[attr-defined]
        "two_factor": selectors.people_with_two_factor(club),
        # The invited addresses in full only with two-factor login on (people's addresses).
        "show_addresses": not needs_two_factor(request.user),
        "roles": ClubRole.Role.choices,
        "error": forms.get("error", ""),
    }
    return render(request, "events/clubs/people.html", context, status=status)


@require_GET
@club_view(MANAGERS)
def club_people(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    return _people_page(request, club)


@require_POST
@club_view(OWNERS)
def role_grant(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    form = RoleGrantForm(request.POST)
    if form.is_valid():
        try:
            role = services.role_grant(
                club=club,
                by=request.user,
                username=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
            )
        except ServiceError as exc:
            form.add_error("username", exc.text)
        else:
            messages.success(
                request,
                _("%(username)s is now %(role)s at %(club)s.")
                % {
                    "username": role.user.get_username(),
                    "role": role.get_role_display(),
                    "club": club.name,
                },
            )
            return redirect("events:club_people", club.slug)
    return _people_page(request, club, status=400, grant_form=form)


@require_POST
@club_view(ANYONE)
def role_action(
    request: AuthenticatedHttpRequest, club: HostClub, user_id: int, action: str
) -> HttpResponse:
    """change (owners), remove (owners; anyone for themselves: leaving), hand-over (owners);
    the services check who may."""
    if user_id != request.user.pk and request.club_role not in OWNERS:  # type: ignore[attr-defined]
        raise PermissionDenied
    try:
        if action == "change":
            form = RoleChangeForm(request.POST)
            if not form.is_valid():
                return _people_page(request, club, status=400, error=_("Choose one of the roles."))
            services.role_change(
                club=club, by=request.user, user_id=user_id, role=form.cleaned_data["role"]
            )
            done = _("The role is changed.")
        elif action == "remove":
            services.role_remove(club=club, by=request.user, user_id=user_id)
            if user_id == request.user.pk:
                messages.success(request, _("You left %(club)s.") % {"club": club.name})
                return redirect("events:club_list")
            done = _("The role is taken away.")
        elif action == "hand-over":
            services.ownership_hand_over(club=club, by=request.user, user_id=user_id)
            done = _("The ownership is handed over; you are an organiser now.")
        elif action == "two-factor-reset" and user_id != request.user.pk:
            two_factor_reset(by=request.user, person_id=user_id, club=club)
            done = _(
                "Their two-factor login is reset and they are told by e-mail: they turn it on "
                "again at their next login."
            )
        else:
            raise Http404
    except ServiceError as exc:
        status = 403 if exc.code in {"not_owner", "owner_by_staff"} else 400
        return _people_page(request, club, status=status, error=exc.text)
    messages.success(request, done)
    return redirect("events:club_people", club.slug)


@require_POST
@club_view(OWNERS)
def club_deletion(request: AuthenticatedHttpRequest, club: HostClub, action: str) -> HttpResponse:
    try:
        if action == "request":
            services.club_deletion_request(club=club, by=request.user)
            messages.success(request, _("The club will be deleted after the notice period."))
        elif action == "cancel":
            services.club_deletion_cancel(club=club, by=request.user)
            messages.success(request, _("The club will not be deleted."))
        else:
            raise Http404
    except ServiceError as exc:  # no longer an owner (demoted a moment ago)
        raise PermissionDenied from exc
    url = reverse("events:club_settings", args=[club.slug])
    # Asked through htmx (its confirmation first): the browser goes to the page either way.
    return HttpResponseClientRedirect(url) if getattr(request, "htmx", False) else redirect(url)


@require_http_methods(["GET", "POST"])
@login_required
def owner_restore(request: AuthenticatedHttpRequest, club_slug: str) -> HttpResponse:
    """Site staff: a club left without an owner gets one."""
    if not request.user.is_staff:
        raise PermissionDenied
    club = selectors.club_by_slug(club_slug)
    if staff_needs_two_factor(request.user):
        return two_factor_page(request, request.get_full_path(), staff=True)
    form = OwnerRestoreForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.owner_restore(
                    club=club, by=request.user, username=form.cleaned_data["username"]
                )
            except ServiceError as exc:
                form.add_error("username", exc.text)
            else:
                messages.success(request, _("%(club)s has an owner again.") % {"club": club.name})
                return redirect(reverse("events:club_list"))
    context = {
        "club": club,
        "form": form,
        "title": _("Restore an owner of %(club)s") % {"club": club.name},
    }
    return _private(render(request, "events/clubs/form.html", context, status=status))


@require_POST
@club_view(OWNERS)
def invitation_send(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            invitations.invitation_send(
                club=club,
                by=request.user,
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
            )
        except ServiceError as exc:
            _errors_to(form, exc)
        else:
            # The same words whether the address has an account here or not.
            messages.success(
                request,
                _("The invitation is sent to %(address)s.")
                % {"address": form.cleaned_data["email"]},
            )
            return redirect("events:club_people", club.slug)
    return _people_page(request, club, status=400, invite_form=form)


@require_POST
@club_view(OWNERS)
def invitation_withdraw(
    request: AuthenticatedHttpRequest, club: HostClub, invitation_id: int
) -> HttpResponse:
    try:
        invitations.invitation_withdraw(club=club, by=request.user, invitation_id=invitation_id)
    except ServiceError as exc:
        return _people_page(request, club, status=404, error=exc.text)
    messages.success(request, _("The invitation is withdrawn; its link no longer works."))
    return redirect("events:club_people", club.slug)
