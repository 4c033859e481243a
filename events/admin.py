"""The admin is the correction tool: every list page is cheap, every change is in the history.

Rules the shared admin keeps (decisions for issue 10):

- Every changelist answers in a constant number of queries (``list_select_related`` plus one
  prefetch for the players of a game); filters by event, competition, session, round and status;
  search by player name; ``autocomplete_fields`` instead of raw ids; "view on site" leads to the
  competition's public page.
- A query string with a NUL character is answered 400 by every admin built on ``SafeAdmin``
  (the format apps' admins inherit it through ``TouchingAdmin``); a search term with NUL finds
  nothing (the autocomplete path). A database refusal (``IntegrityError``) on a save is shown as
  a message in words, never as a 500 or a constraint name.
- Seat results of a format with ``derived_seat_scores`` are read-only here (they come from the
  format's own detail table). For a format with a ``correct_seats`` hook, the changed seat values
  go through that hook: once in a rolled-back savepoint while the form is validated (so an
  impossible result is an error beside the field), then for real in ``save_related``; seats of
  such a format are neither added nor deleted here, and their entry and position are read-only.
  A seat's colour must be one of the format's colours where the format names them.
- Deleting a session, round or game (or a competition or an event) that holds results, i.e. a
  finished game or a seat with a score or points, is refused: the delete page (and the bulk
  delete action) lists what holds it, as Django does for PROTECT. Rows without results can still
  be deleted. A result is removed by correcting it (the format's desk), not by deleting its game.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponseBadRequest, HttpResponseRedirect
from django.utils.module_loading import import_string
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from events.formats import default_settings
from events.models import (
    Competition,
    Correction,
    Entry,
    Event,
    Game,
    Player,
    Round,
    Seat,
    Session,
    constraint_message,
)
from events.services import competition_touch

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


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

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if _has_nul(request):
            return HttpResponseBadRequest(str(NUL_REFUSED))
        try:
            return super().changeform_view(  # type: ignore[misc]
                request, object_id, form_url, extra_context
            )
        except IntegrityError as exc:
            # A race or a combination the forms cannot see (two seats swapping positions):
            # the transaction is rolled back; say what happened in words and show the form again.
            reason = constraint_message(str(exc))
            self.message_user(  # type: ignore[attr-defined]
                request, SAVE_REFUSED % {"reason": reason}, messages.ERROR
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
        gettext("%(game)s: %(status)s, %(count)s scores entered")
        % {
            "game": game_label(game),
            "status": game.get_status_display(),
            "count": getattr(game, "scored_seats", 0),
        }
        for game in held[:limit]
    ]
    if len(held) > limit:
        rest = _held_games(games).count() - limit
        lines.append(gettext("and %(count)s more games with results") % {"count": rest})
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
            protected = [*protected, *held]
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


def _filter(base: type[admin.SimpleListFilter], path: str) -> type[admin.SimpleListFilter]:
    return type(f"{base.__name__}_{path}", (base,), {"path": path})


# --- players, events, competitions, entries ------------------------------------------------


@admin.register(Player)
class PlayerAdmin(SafeAdmin):
    list_display = ["name", "club", "email", "rating", "rated_games", "created_at"]
    search_fields = ["name", "club", "email", "search_text"]
    list_filter = ["club"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # A player's name and rating show on every competition they are in.
        for competition in Competition.objects.filter(entries__player=obj).distinct():
            competition_touch(competition)


class CompetitionInlineForm(forms.ModelForm):
    """The event's inline edits name, address, format and status; a competition added here
    starts with its format's default settings, and a settings problem (after a format change)
    is shown on the row instead of crashing the page."""

    class Meta:
        model = Competition
        fields = ["name", "slug", "format", "status"]

    def clean(self):
        cleaned: dict[str, Any] = super().clean() or {}
        key = cleaned.get("format")
        if key and (self.instance.pk is None or "format" in self.changed_data):
            try:
                self.instance.settings = default_settings(key)
            except KeyError:
                pass
        return cleaned

    def _update_errors(self, errors: ValidationError) -> None:
        if hasattr(errors, "error_dict") and "settings" in errors.error_dict:
            moved = dict(errors.error_dict)
            moved[NON_FIELD_ERRORS] = [*moved.get(NON_FIELD_ERRORS, []), *moved.pop("settings")]
            errors = ValidationError(moved)
        super()._update_errors(errors)  # type: ignore[misc]


class CompetitionInline(SafeWidgetsMixin, admin.TabularInline):
    model = Competition
    form = CompetitionInlineForm
    fields = ["name", "slug", "format", "status"]
    extra = 0
    show_change_link = True


class EventAdmin(ProtectResultsMixin, SafeAdmin):
    list_display = ["name", "slug", "starts_on", "ends_on", "venue", "is_public"]
    list_filter = ["is_public", "starts_on"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [CompetitionInline]

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(round__session__competition__event__in=pks)

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        # The event's name, venue and its competitions show on every public page of it.
        Event.objects.filter(pk=form.instance.pk).update(version=F("version") + 1)
        Competition.objects.filter(event=form.instance).update(version=F("version") + 1)


admin.site.register(Event, EventAdmin)


class SettingsField(forms.JSONField):
    """A JSON field that refuses nesting too deep to parse instead of crashing."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except RecursionError:
            raise ValidationError(
                gettext("Settings must be plain values."), code="invalid"
            ) from None

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except RecursionError:
            return forms.fields.InvalidJSONInput(data)


class CompetitionForm(forms.ModelForm):
    class Meta:
        model = Competition
        fields = "__all__"
        field_classes = {"settings": SettingsField}


class EntryInline(SafeWidgetsMixin, admin.TabularInline):
    model = Entry
    fields = ["player", "registered_at", "checked_in_at", "withdrawn_at"]
    readonly_fields = ["registered_at"]
    autocomplete_fields = ["player"]
    extra = 0

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("player")


@admin.register(Competition)
class CompetitionAdmin(ProtectResultsMixin, TouchingAdmin):
    form = CompetitionForm
    list_display = ["name", "event", "format", "status", "entry_count"]
    list_filter = [EventFilter, "format", "status"]
    list_select_related = ["event"]
    search_fields = ["name", "event__name"]
    autocomplete_fields = ["event"]
    inlines = [EntryInline]

    def competition_of(self, obj: Competition) -> Competition:
        return obj

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(round__session__competition__in=pks)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return super().get_queryset(request).annotate(entries_total=Count("entries"))

    @admin.display(description=_("entries"), ordering="entries_total")
    def entry_count(self, obj: WithAnnotations[Competition, EntriesTotal]) -> int:
        return obj.entries_total


@admin.register(Entry)
class EntryAdmin(TouchingAdmin):
    list_display = ["player", "competition", "registered_at", "checked_in_at", "withdrawn_at"]
    list_filter = [
        _filter(EventFilter, "competition__event"),
        CompetitionFilter,
        "competition__format",
        ("withdrawn_at", admin.EmptyFieldListFilter),
    ]
    list_select_related = ["player", "competition__event"]
    search_fields = [
        "player__name",
        "player__club",
        "competition__name",
        "competition__event__name",
    ]
    autocomplete_fields = ["player", "competition"]

    def competition_of(self, obj: Entry) -> Competition:
        return obj.competition

    def get_search_results(self, request, queryset, search_term):
        queryset, distinct = super().get_search_results(request, queryset, search_term)
        # The autocomplete of a seat's entry names the competition too.
        return queryset.select_related("player", "competition"), distinct


# --- sessions, rounds, games, seats ------------------------------------------------------


@admin.register(Session)
class SessionAdmin(ProtectResultsMixin, TouchingAdmin):
    list_display = ["__str__", "competition", "event", "kind", "number", "starts_at"]
    list_filter = [_filter(EventFilter, "competition__event"), CompetitionFilter, "kind"]
    list_select_related = ["competition__event"]
    search_fields = [
        "name",
        "competition__name",
        "competition__event__name",
        "rounds__games__seats__entry__player__name",
    ]
    autocomplete_fields = ["competition"]

    def competition_of(self, obj: Session) -> Competition:
        return obj.competition

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(round__session__in=pks)

    @admin.display(description=_("event"), ordering="competition__event__name")
    def event(self, obj: Session) -> str:
        return obj.competition.event.name


@admin.register(Round)
class RoundAdmin(ProtectResultsMixin, TouchingAdmin):
    list_display = ["__str__", "session", "competition", "seed", "started_at"]
    list_filter = [
        _filter(EventFilter, "session__competition__event"),
        _filter(CompetitionFilter, "session__competition"),
        SessionFilter,
    ]
    list_select_related = ["session__competition__event"]
    search_fields = ["session__competition__name", "games__seats__entry__player__name"]
    autocomplete_fields = ["session"]

    def competition_of(self, obj: Round) -> Competition:
        return obj.session.competition

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(round__in=pks)

    @admin.display(description=_("competition"), ordering="session__competition__name")
    def competition(self, obj: Round) -> str:
        return str(obj.session.competition)


def _seat_scores_derived(game: Game | None) -> bool:
    """Whether the game's format computes seat score and points from its own detail table (a
    Blokus hand, edited in its own admin); editing them here would bypass the rules."""
    if game is None or not game.pk:
        return False
    return bool(game.round.session.competition.game_format.derived_seat_scores)


def _correct_seats_hook(game: Game | None):
    """The format's ``correct_seats(*, game, values, by)``, or None when it has none."""
    if game is None or not game.pk:
        return None
    path = getattr(game.round.session.competition.game_format, "correct_seats", "")
    return import_string(path) if path else None


def format_colours(game: Game | None) -> tuple[str, ...]:
    """The colours a seat of ``game`` may have; empty when the format does not name them.

    From ``GameFormat.seat_colours`` when the format declares it, else its rules module's
    ``COLOURS``."""
    if game is None or not game.pk:
        return ()
    game_format = game.round.session.competition.game_format
    declared = getattr(game_format, "seat_colours", ())
    if declared:
        return tuple(declared)
    return tuple(getattr(game_format.rules(), "COLOURS", ()))


RESULT_FIELDS = ("score", "points", "colour")
CONFIRM_FIELD = "confirm_correction"
UNKNOWN_COLOUR = _("%(colour)s is not a colour of this game; the colours are %(colours)s.")


class _DryRun(Exception):
    """Raised inside a savepoint to roll back a trial run of a format's hook."""


class SeatFormSet(BaseInlineFormSet):
    request: HttpRequest | None = None

    def clean(self) -> None:
        super().clean()
        game = self.instance
        colours = format_colours(game)
        for form in self.forms:
            if not form.has_changed() or not hasattr(form, "cleaned_data"):
                continue
            colour = form.cleaned_data.get("colour")
            if colours and colour and colour not in colours and "colour" in form.changed_data:
                form.add_error(
                    "colour", UNKNOWN_COLOUR % {"colour": colour, "colours": ", ".join(colours)}
                )
        hook = _correct_seats_hook(game)
        if hook is None or any(form.errors for form in self.forms):
            return
        values = self.changed_values()
        if not values:
            return
        by = getattr(self.request, "user", None)
        kwargs: dict[str, Any] = {}
        if "confirmed" in inspect.signature(hook).parameters:
            kwargs["confirmed"] = bool(self.data.get(CONFIRM_FIELD))
        try:
            with transaction.atomic():
                hook(game=game, values=values, by=by, **kwargs)
                raise _DryRun
        except _DryRun:
            pass
        except ValidationError as exc:
            self._show(exc, values)

    def changed_values(self) -> dict[int, dict[str, Any]]:
        """seat pk -> {"score", "points", "colour"} for each seat whose result changed."""
        return {
            form.instance.pk: {name: form.cleaned_data.get(name) for name in RESULT_FIELDS}
            for form in self.initial_forms
            if form.instance.pk and set(form.changed_data) & set(RESULT_FIELDS)
        }

    def _show(self, exc: ValidationError, values: dict[int, dict[str, Any]]) -> None:
        """Put the hook's refusal beside the field it names (``exc.field``) on the seat it
        names (``exc.seat``, else each seat that changed that field); else above the seats."""
        field = getattr(exc, "field", None)
        seat = getattr(exc, "seat", None)
        targets = [
            form
            for form in self.initial_forms
            if form.instance.pk in values
            and field in RESULT_FIELDS
            and field in form.fields
            and (form.instance.pk == seat if seat is not None else field in form.changed_data)
        ]
        if not targets:
            raise ValidationError(exc.messages)
        for form in targets:
            form.add_error(field, exc.messages)


class SeatInline(SafeWidgetsMixin, admin.TabularInline):
    model = Seat
    formset = SeatFormSet
    fields = ["position", "entry", "colour", "score", "points"]
    autocomplete_fields = ["entry"]
    extra = 0

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        return type(formset.__name__, (formset,), {"request": request})

    def get_readonly_fields(self, request, obj=None):
        if _seat_scores_derived(obj):
            return ["score", "points"]
        if _correct_seats_hook(obj) is not None:
            return ["position", "entry"]
        return []

    def has_add_permission(self, request, obj=None):
        if _correct_seats_hook(obj) is not None:
            return False
        return super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and (
            _correct_seats_hook(obj) is not None or results_held(Game.objects.filter(pk=obj.pk))
        ):
            return False
        return super().has_delete_permission(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Seat]:
        return super().get_queryset(request).select_related("entry__player")


class GameForm(forms.ModelForm):
    confirm_correction = forms.BooleanField(
        label=_("Correct it anyway"),
        required=False,
        help_text=_(
            "Tick when the page warned that later rounds, tiebreaks or ratings were drawn "
            "from this result."
        ),
    )

    class Meta:
        model = Game
        fields = "__all__"


@admin.register(Game)
class GameAdmin(ProtectResultsMixin, TouchingAdmin):
    form = GameForm
    list_display = ["__str__", "round", "session", "competition", "players", "status", "updated_at"]
    list_filter = [
        _filter(EventFilter, "round__session__competition__event"),
        _filter(CompetitionFilter, "round__session__competition"),
        _filter(SessionFilter, "round__session"),
        "round__number",
        "status",
    ]
    list_select_related = ["round__session__competition__event"]
    search_fields = ["round__session__competition__name", "seats__entry__player__name"]
    autocomplete_fields = ["round"]
    inlines = [SeatInline]

    def competition_of(self, obj: Game) -> Competition:
        return obj.round.session.competition

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(pk__in=pks)

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if _correct_seats_hook(obj) is None:  # only a format's hook can warn and be confirmed
            fields = [name for name in fields if name != CONFIRM_FIELD]
        return fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return (
            super()
            .get_queryset(request)
            .prefetch_related("seats__entry__player")
            .select_related("round__session__competition__event")
        )

    @admin.display(description=_("session"), ordering="round__session__number")
    def session(self, obj: Game) -> str:
        return str(obj.round.session)

    @admin.display(description=_("competition"))
    def competition(self, obj: Game) -> str:
        return str(obj.round.session.competition)

    @admin.display(description=_("players"))
    def players(self, obj: Game) -> str:
        return ", ".join(seat.entry.player.name for seat in obj.seats.all())

    def save_related(self, request, form, formsets, change) -> None:
        hook = _correct_seats_hook(form.instance)
        if hook is None:
            super().save_related(request, form, formsets, change)
        else:
            form.save_m2m()
            for formset in formsets:
                if isinstance(formset, SeatFormSet):
                    values = formset.changed_values()
                    if values:
                        hook(game=form.instance, values=values, by=request.user)
                    # What the admin's change message reads of a saved formset (the hook
                    # saved the seats, the formset did not).
                    formset.new_objects, formset.deleted_objects = [], []
                    formset.changed_objects = []
                else:
                    self.save_formset(request, form, formset, change=change)
        competition_touch(self.competition_of(form.instance))


class SeatForm(forms.ModelForm):
    class Meta:
        model = Seat
        fields = "__all__"

    def clean(self):
        cleaned: dict[str, Any] = super().clean() or {}
        colour = cleaned.get("colour")
        game = cleaned.get("game") or (self.instance.game if self.instance.game_id else None)
        colours = format_colours(game)
        if colours and colour and colour not in colours:
            self.add_error(
                "colour", UNKNOWN_COLOUR % {"colour": colour, "colours": ", ".join(colours)}
            )
        return cleaned


@admin.register(Seat)
class SeatAdmin(ProtectResultsMixin, TouchingAdmin):
    form = SeatForm
    list_display = ["__str__", "player", "game_of", "colour", "score", "points"]
    list_filter = [
        _filter(EventFilter, "game__round__session__competition__event"),
        _filter(CompetitionFilter, "game__round__session__competition"),
        _filter(SessionFilter, "game__round__session"),
        "game__round__number",
        "game__status",
    ]
    list_select_related = ["game__round__session__competition__event", "entry__player"]
    search_fields = ["entry__player__name"]
    autocomplete_fields = ["game", "entry"]

    def competition_of(self, obj: Seat) -> Competition:
        return obj.game.round.session.competition

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(seats__pk__in=pks).distinct()

    @admin.display(description=_("player"), ordering="entry__player__name")
    def player(self, obj: Seat) -> str:
        return obj.entry.player.name

    @admin.display(description=_("game"))
    def game_of(self, obj: Seat) -> str:
        return game_label(obj.game)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and _seat_scores_derived(obj.game):
            return ["score", "points"]
        if obj is not None and _correct_seats_hook(obj.game) is not None:
            # Corrected through the game's page, which runs the format's own checks.
            return ["game", "entry", "position", "colour", "score", "points"]
        return []


@admin.register(Correction)
class CorrectionAdmin(SafeAdminMixin, admin.ModelAdmin):
    """The trail is written by the formats' services only; here it is read."""

    list_display = ["created_at", "competition", "entry", "item", "before", "after", "source"]
    list_filter = [_filter(EventFilter, "competition__event"), CompetitionFilter, "source"]
    list_select_related = ["competition__event", "entry__player", "entry__competition"]
    search_fields = ["entry__player__name", "item", "note"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def view_on_site(self, obj: Correction) -> str:
        return obj.competition.get_absolute_url()
