"""The desk's edit pages (event details, competition name, a player's register entry, removing a
mistaken registration) and the owner's "People" page. Thin: parse, call one service from
``events.services.editing`` or ``events.services.organisers``, render. Rules and messages live
there."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms.models import fields_for_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from events import selectors
from events.accounts.twofactor import ensure_two_factor, personal_data
from events.common.http import AuthenticatedHttpRequest, int_or_404
from events.desk.http import desk_view, go
from events.errors import ServiceError
from events.models import MAX_RATING, Competition, Entry, Event, EventRole, time_zone_choices
from events.permissions import MANAGE, OWNER, ensure_access
from events.selectors.people import roles_of_event
from events.services import editing
from events.services.organisers import event_role_remove, event_role_set

# --- forms -------------------------------------------------------------------------------------


class _EditForm(forms.Form):
    """A form over some of a model's fields, carrying the signature of what it was drawn from."""

    signature = forms.CharField(widget=forms.HiddenInput, max_length=64)
    model: Any = None
    field_names: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(fields_for_model(self.model, fields=self.field_names))
        self.tune()

    def tune(self) -> None:
        pass

    @classmethod
    def of(cls, obj: Any) -> _EditForm:
        initial = {name: getattr(obj, name) for name in cls.field_names}
        return cls(initial={**initial, "signature": editing.signature(obj, cls.field_names)})

    def values(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.field_names}


class EventEditForm(_EditForm):
    model = Event
    field_names = editing.EVENT_FIELDS

    def tune(self) -> None:
        current = self.data.get("time_zone") if self.is_bound else self.initial.get("time_zone")
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"), choices=time_zone_choices(keep=current)
        )
        for name in ("starts_on", "ends_on"):
            self.fields[name].widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        # A form drawn before events had a language posts none: the stored one stays.
        self.fields["language"].required = False

    def values(self) -> dict[str, Any]:
        values = super().values()
        if not values.get("language"):
            values.pop("language", None)
        return values

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", _("An event cannot end before it starts."))
        return data


class CompetitionEditForm(_EditForm):
    model = Competition
    field_names = editing.COMPETITION_FIELDS


class PlayerEditForm(_EditForm):
    model = editing.Player
    field_names = editing.PLAYER_FIELDS

    def __init__(self, *args: Any, rating_locked: bool = False, **kwargs: Any) -> None:
        self.rating_locked = rating_locked
        super().__init__(*args, **kwargs)

    def tune(self) -> None:
        language = self.fields["language"]
        blank = ("", gettext_lazy("The event's language"))
        language.choices = [blank, *settings.LANGUAGES]  # type: ignore[attr-defined]
        rating = self.fields["rating"]
        rating.widget.attrs.update({"min": 0, "max": MAX_RATING, "inputmode": "numeric"})
        if self.rating_locked:
            rating.disabled = True
            rating.help_text = gettext_lazy("Comes from rated games; an admin can correct it.")

    @classmethod
    def for_player(cls, player: Any, data: Any = None) -> PlayerEditForm:
        initial = {name: getattr(player, name) for name in cls.field_names}
        initial["signature"] = editing.signature(player, cls.field_names)
        locked = bool(player.rated_games)
        if data is None:
            return cls(initial=initial, rating_locked=locked)
        return cls(data, initial=initial, rating_locked=locked)


class PersonForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Login name"), max_length=150)
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=EventRole.Role.choices,
        initial=EventRole.Role.SCOREKEEPER,
        help_text=gettext_lazy(
            "Scorekeepers enter and correct results only; organisers run the whole desk; "
            "owners also add and remove people."
        ),
    )


# --- shared ------------------------------------------------------------------------------------


def _stale_form(form: _EditForm, obj: Any, exc: ServiceError) -> _EditForm:
    """After a stale refusal: the stored values in the form, what was typed shown beside it."""
    fresh = PlayerEditForm.for_player(obj) if isinstance(form, PlayerEditForm) else form.of(obj)
    fresh.typed = {  # type: ignore[attr-defined]
        str(form.fields[name].label): form.data.get(name, "")
        for name in form.field_names
        if str(form.data.get(name, "")) != str(fresh.initial.get(name, ""))
    }
    fresh.stale = exc.text  # type: ignore[attr-defined]
    return fresh


def _refused(
    form: Any, obj: Any, exc: ServiceError, fields: dict[str, str] | None = None
) -> tuple[Any, int]:
    """A refused edit: a stale one shows the stored values with what was typed beside them
    (409); another refusal stands beside the field its code names, or above the form (400)."""
    if exc.code == "stale_edit":
        obj.refresh_from_db()
        return _stale_form(form, obj, exc), 409
    form.add_error((fields or {}).get(exc.code or ""), exc)
    return form, 400


def _event_for(request: AuthenticatedHttpRequest, event_slug: str, allow: str) -> Event:
    event = selectors.event_by_slug(event_slug)
    ensure_access(event, request.user, allow)
    return event


# --- event details -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def event_edit(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = _event_for(request, event_slug, MANAGE)
    form: _EditForm = EventEditForm.of(event)
    status = 200
    if request.method == "POST":
        form = EventEditForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                editing.event_edit(
                    event=event, expected=form.cleaned_data["signature"], values=form.values()
                )
            except ServiceError as exc:
                form, status = _refused(form, event, exc)
            else:
                messages.success(request, _("Event details saved."))
                return redirect(reverse("events:event_desk", args=[event.slug]) + "?all")
    context = {
        "event": event,
        "form": form,
        "title": _("Edit %(name)s") % {"name": event.name},
        "back": reverse("events:event_desk", args=[event.slug]) + "?all",
        "history": editing.history_of(event, editing.EVENT_FIELDS),
    }
    return render(request, "events/edit.html", context, status=status)


# --- competition name --------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@desk_view()
def competition_edit(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    form: _EditForm = CompetitionEditForm.of(competition)
    status = 200
    if request.method == "POST":
        form = CompetitionEditForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                editing.competition_edit(
                    competition=competition,
                    expected=form.cleaned_data["signature"],
                    values=form.values(),
                )
            except ServiceError as exc:
                form, status = _refused(form, competition, exc)
            else:
                messages.success(request, _("Competition renamed."))
                return redirect(competition.get_desk_url())
    context = {
        "event": competition.event,
        "competition": competition,
        "form": form,
        "title": _("Rename %(name)s") % {"name": competition.name},
        "back": competition.get_desk_url(),
        "history": editing.history_of(competition, editing.COMPETITION_FIELDS),
    }
    return render(request, "events/edit.html", context, status=status)


# --- a player's register entry -----------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
@personal_data(after_access=True)
def player_edit(request: AuthenticatedHttpRequest, event_slug: str, player_id: int) -> HttpResponse:
    event = _event_for(request, event_slug, MANAGE)
    ensure_two_factor(request.user)  # the person's address and its history
    player = editing.player_of_event(event, player_id)
    form = PlayerEditForm.for_player(player)
    status = 200
    if request.method == "POST":
        form = PlayerEditForm.for_player(player, request.POST)
        status = 400
        if form.is_valid():
            values = form.values()
            if form.rating_locked:
                values.pop("rating", None)
            try:
                editing.player_edit(
                    event=event,
                    player=player,
                    expected=form.cleaned_data["signature"],
                    values=values,
                )
            except ServiceError as exc:
                form, status = _refused(
                    form, player, exc, {"player_exists": "name", "rating_from_games": "rating"}
                )
            else:
                messages.success(request, _("%(player)s saved.") % {"player": player.name})
                return redirect(reverse("events:player_edit", args=[event.slug, player.pk]))
    entries = list(
        Entry.objects.filter(player=player, competition__event=event)
        .select_related("competition")
        .order_by("competition__created_at", "competition__pk")
    )
    context = {
        "event": event,
        "player": player,
        "form": form,
        "title": player.name,
        "back": reverse("events:event_desk", args=[event.slug]),
        "entries": entries,
        "history": editing.history_of(player, editing.PLAYER_FIELDS),
    }
    return render(request, "events/edit.html", context, status=status)


@require_POST
@login_required
def entry_remove(request: AuthenticatedHttpRequest, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "competition__event"), pk=entry_id
    )
    ensure_access(entry.competition.event, request.user, MANAGE)
    try:
        player = editing.entry_remove(entry=entry)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("%(player)s's registration in %(competition)s was removed.")
            % {"player": player.name, "competition": entry.competition.name},
        )
    return go(request, entry.competition.get_desk_url())


# --- the owner's "People" page -----------------------------------------------------------------


def _people(
    request: AuthenticatedHttpRequest, event: Event, form: PersonForm, status: int = 200
) -> HttpResponse:
    context = {"event": event, "roles": roles_of_event(event), "form": form}
    return render(request, "events/people.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def people(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = _event_for(request, event_slug, OWNER)
    if request.method != "POST":
        return _people(request, event, PersonForm())
    form = PersonForm(request.POST)
    if form.is_valid():
        try:
            role = event_role_set(
                event=event, username=form.cleaned_data["username"], role=form.cleaned_data["role"]
            )
        except ServiceError as exc:
            form.add_error("username", exc)
        else:
            messages.success(
                request,
                _("%(username)s is now %(role)s of %(event)s.")
                % {
                    "username": role.user.get_username(),
                    "role": role.get_role_display(),
                    "event": event.name,
                },
            )
            return redirect(reverse("events:people", args=[event.slug]))
    return _people(request, event, form, status=400)


@require_POST
@login_required
def person_remove(request: AuthenticatedHttpRequest, event_slug: str, user_id: int) -> HttpResponse:
    event = _event_for(request, event_slug, OWNER)
    try:
        role = event_role_remove(event=event, user_id=int_or_404(user_id))
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("%(username)s no longer has a role at %(event)s.")
            % {"username": role.user.get_username(), "event": event.name},
        )
    return go(request, reverse("events:people", args=[event.slug]))
