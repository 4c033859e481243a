"""Sessions, rounds, games and seats (results), and the correction trail."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from events.models import (
    Competition,
    Correction,
    Game,
    Round,
    Seat,
    Session,
)
from events.services import competition_touch

if TYPE_CHECKING:
    pass


from events.admin.base import (
    CompetitionFilter,
    EventFilter,
    ProtectResultsMixin,
    SafeAdminMixin,
    SafeWidgetsMixin,
    SessionFilter,
    TouchingAdmin,
    filter_on,
    game_label,
    results_held,
)


@admin.register(Session)
class SessionAdmin(ProtectResultsMixin, TouchingAdmin):
    list_display = ["__str__", "competition", "event", "kind", "number", "starts_at"]
    list_filter = [filter_on(EventFilter, "competition__event"), CompetitionFilter, "kind"]
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
        filter_on(EventFilter, "session__competition__event"),
        filter_on(CompetitionFilter, "session__competition"),
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
    return game.round.session.competition.game_format.hooks.derived_seat_scores


def _correct_seats_hook(game: Game | None):
    """The format's ``correct_seats(*, game, values, by)``, or None when it has none."""
    if game is None or not game.pk:
        return None
    hooks = game.round.session.competition.game_format.hooks
    return hooks.correct_seats if hooks.corrects_seats() else None


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
        confirmed = bool(self.data.get(CONFIRM_FIELD))
        try:
            with transaction.atomic():
                hook(game=game, values=values, by=by, confirmed=confirmed)
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
        filter_on(EventFilter, "round__session__competition__event"),
        filter_on(CompetitionFilter, "round__session__competition"),
        filter_on(SessionFilter, "round__session"),
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
        filter_on(EventFilter, "game__round__session__competition__event"),
        filter_on(CompetitionFilter, "game__round__session__competition"),
        filter_on(SessionFilter, "game__round__session"),
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
    list_filter = [
        filter_on(EventFilter, "competition__event"),
        CompetitionFilter,
        "source",
    ]
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
