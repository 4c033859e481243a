"""The shared admin's building blocks: safe widgets, NUL refusal, refused deletes of results,
version bumps, and the event/competition/session filters every format's admin uses."""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import IntegrityError
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponseBadRequest, HttpResponseRedirect
from django.utils import timezone
from django.utils.translation import gettext_lazy as _, ngettext
from simple_history.admin import SimpleHistoryAdmin

from events.common.localising import zone_of
from events.errors import ServiceError
from events.models import (
    Competition,
    Event,
    Game,
    Session,
    constraint_message,
)
from events.seat_checks import check_message
from events.services import competition_touch

if TYPE_CHECKING:
    pass


class EntriesTotal(TypedDict):
    entries_total: int


NUL_REFUSED = _("The address contains a character that cannot be searched for.")
SAVE_REFUSED = _("The change was not saved: %(reason)s")


def _has_nul(request: HttpRequest) -> bool:
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in request.GET.lists()
    )


class SafeAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete widget looks up the posted value to show it again; a value that is
    no key at all ("abc") would crash the page instead of showing the form's error."""

    def optgroups(self, name, value, attr=None):
        try:
            return super().optgroups(name, value, attr)
        except (ValueError, TypeError, ValidationError, OverflowError):
            return super().optgroups(name, [], attr)


class SafeModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """Refuses a key too large for the database (SQLite raises OverflowError on it)."""

    def _check_values(self, value):
        for pk in value:
            text = str(pk).strip()
            if text.lstrip("-").isdigit() and abs(int(text)) > 2**63 - 1:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)  # type: ignore[misc]


class SafeWidgetsMixin:
    def formfield_for_manytomany(self, db_field, request, **kwargs):
        kwargs.setdefault("form_class", SafeModelMultipleChoiceField)
        return super().formfield_for_manytomany(  # type: ignore[misc]
            db_field, request, **kwargs
        )

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request):  # type: ignore[attr-defined]
            kwargs["widget"] = SafeAutocompleteSelect(
                db_field,
                self.admin_site,  # type: ignore[attr-defined]
                using=kwargs.get("using"),
            )
        return super().formfield_for_foreignkey(  # type: ignore[misc]
            db_field, request, **kwargs
        )


class SafeAdminMixin(SafeWidgetsMixin):
    """No admin page answers 500 for what a user typed or a database refused."""

    def changelist_view(self, request, extra_context=None):
        if _has_nul(request):
            return HttpResponseBadRequest(str(NUL_REFUSED))
        return super().changelist_view(  # type: ignore[misc]
            request, extra_context
        )

    def get_search_results(self, request, queryset, search_term):
        if "\x00" in search_term:
            return queryset.none(), False
        return super().get_search_results(  # type: ignore[misc]
            request, queryset, search_term
        )

    def event_of(self, request, object_id) -> Event | None:
        """The event an edited row belongs to (None for a new row, a player, a user): its
        times are shown and typed in that event's zone, as on its desk and public pages."""
        if object_id is None:
            return None
        try:
            obj = self.get_object(request, unquote(object_id))  # type: ignore[attr-defined]
        except (ValueError, TypeError, ValidationError, OverflowError):
            return None
        if obj is None:
            return None
        if isinstance(obj, Event):
            return obj
        finder = getattr(self, "competition_of", None)
        try:
            competition = finder(obj) if finder is not None else getattr(obj, "competition", None)
        except (NotImplementedError, AttributeError, ObjectDoesNotExist):
            competition = None
        if isinstance(competition, Competition):
            return competition.event
        event = getattr(obj, "event", None)
        return event if isinstance(event, Event) else None

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if _has_nul(request):
            return HttpResponseBadRequest(str(NUL_REFUSED))
        event = self.event_of(request, object_id)
        try:
            zone = timezone.override(zone_of(event)) if event is not None else nullcontext()
            with zone:
                response = super().changeform_view(  # type: ignore[misc]
                    request, object_id, form_url, extra_context
                )
                if event is not None and hasattr(response, "render"):
                    response.render()  # a TemplateResponse renders later, out of the zone
                return response
        except IntegrityError as exc:
            # A race or a combination the forms cannot see (two seats swapping positions):
            # the transaction is rolled back; say what happened in words and show the form again.
            reason = check_message(str(exc)) or constraint_message(str(exc))
            self.message_user(  # type: ignore[attr-defined]
                request, SAVE_REFUSED % {"reason": reason}, messages.ERROR
            )
            return HttpResponseRedirect(request.get_full_path())
        except ServiceError as exc:
            # A service's refusal on save that the form's checks could not foresee (the row
            # went, or a right was taken, since they ran): rolled back and said in words.
            self.message_user(  # type: ignore[attr-defined]
                request, SAVE_REFUSED % {"reason": exc.text}, messages.ERROR
            )
            return HttpResponseRedirect(request.get_full_path())

    def history_view(self, request, object_id, extra_context=None):
        if _has_nul(request):
            return HttpResponseBadRequest(str(NUL_REFUSED))
        return super().history_view(  # type: ignore[misc]
            request, object_id, extra_context
        )


class SafeAdmin(SafeAdminMixin, SimpleHistoryAdmin):
    pass


# --- results held: what refuses a delete ----------------------------------------------------


def _held_games(games: QuerySet[Game]) -> QuerySet[Game]:
    scored = Q(seats__score__isnull=False) | Q(seats__points__isnull=False)
    return (
        games.filter(Q(status=Game.Status.FINISHED) | scored)
        .annotate(scored_seats=Count("seats", filter=scored, distinct=True))
        .select_related("round__session__competition__event")
        .order_by(
            "round__session__competition", "round__session__number", "round__number", "number"
        )
    )


def results_held(games: QuerySet[Game], limit: int = 20) -> list[str]:
    """What a delete of ``games`` would lose, one line per game holding results (at most
    ``limit`` lines and a count of the rest); empty when none holds any."""
    held = list(_held_games(games)[: limit + 1])
    lines = [
        ngettext(
            "%(game)s: %(status)s, %(count)s score entered",
            "%(game)s: %(status)s, %(count)s scores entered",
            getattr(game, "scored_seats", 0),
        )
        % {
            "game": game_label(game),
            "status": game.get_status_display(),
            "count": getattr(game, "scored_seats", 0),
        }
        for game in held[:limit]
    ]
    if len(held) > limit:
        rest = _held_games(games).count() - limit
        lines.append(
            ngettext(
                "and %(count)s more game with results",
                "and %(count)s more games with results",
                rest,
            )
            % {"count": rest}
        )
    return lines


def game_label(game: Game) -> str:
    """ "LinCon 2026: Blokus · Qualifying session 1 · Round 2 · Table 3" (needs the round,
    session, competition and event selected)."""
    session = game.round.session
    return f"{session.competition} · {session} · {game.round} · {game}"


class ProtectResultsMixin:
    """Refuses a delete that would remove results; subclasses say which games an object holds."""

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        raise NotImplementedError

    def get_deleted_objects(self, objs, request):
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(  # type: ignore[misc]
            objs, request
        )
        held = results_held(self.games_of([obj.pk for obj in objs]))
        if held:
            # The results are the reason, whatever else is missing: Django's page shows a
            # missing permission instead of the protected rows, which would hide them.
            protected = [*protected, *held]
            perms_needed = set()
        return deleted, model_count, perms_needed, protected


class TouchingAdmin(SafeAdmin):
    """Every admin write bumps the version of each competition it touched (the row's old one
    too, when an edit moves it), so public pages and their caches follow."""

    def competition_of(self, obj) -> Competition | None:
        raise NotImplementedError

    def _touch(self, competitions) -> None:
        unique = {c.pk: c for c in competitions if c is not None}
        for competition in unique.values():
            competition_touch(competition)

    def save_model(self, request, obj, form, change) -> None:
        before = None
        if change and obj.pk:
            stored = type(obj).objects.filter(pk=obj.pk).first()
            before = self.competition_of(stored) if stored is not None else None
        super().save_model(request, obj, form, change)
        self._touch([before, self.competition_of(obj)])

    def delete_model(self, request, obj) -> None:
        competition = self.competition_of(obj)
        super().delete_model(request, obj)
        self._touch([competition])

    def delete_queryset(self, request, queryset) -> None:
        competitions = [self.competition_of(obj) for obj in queryset]
        super().delete_queryset(request, queryset)
        self._touch(competitions)

    def view_on_site(self, obj):
        competition = self.competition_of(obj)
        return competition.get_absolute_url() if competition is not None else None


# --- list filters that name what they filter ------------------------------------------------


class EventFilter(admin.SimpleListFilter):
    title = _("event")
    parameter_name = "event"
    path = "event"  # the lookup from the listed model to Event

    def lookups(self, request, model_admin):
        return [(str(pk), name) for pk, name in Event.objects.values_list("pk", "name")]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(**{f"{self.path}__pk": int(value)})
        return queryset


class CompetitionFilter(admin.SimpleListFilter):
    title = _("competition")
    parameter_name = "competition"
    path = "competition"

    def lookups(self, request, model_admin):
        return [
            (str(c.pk), str(c)) for c in Competition.objects.select_related("event").order_by("pk")
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(**{f"{self.path}__pk": int(value)})
        return queryset


class SessionFilter(admin.SimpleListFilter):
    title = _("session")
    parameter_name = "session"
    path = "session"

    def lookups(self, request, model_admin):
        sessions = Session.objects.select_related("competition__event").order_by(
            "competition", "number"
        )
        return [(str(s.pk), f"{s.competition} · {s}") for s in sessions]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(**{f"{self.path}__pk": int(value)})
        return queryset


def filter_on(base: type[admin.SimpleListFilter], path: str) -> type[admin.SimpleListFilter]:
    return type(f"{base.__name__}_{path}", (base,), {"path": path})


# --- players, events, competitions, entries ------------------------------------------------
