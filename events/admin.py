"""The admin is the correction tool: every list page is cheap, every change is in the history."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin
from django.db.models import Count, F, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from events.models import Competition, Entry, Event, Game, Player, Round, Seat, Session
from events.services import competition_touch

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class EntriesTotal(TypedDict):
    entries_total: int


class TouchingAdmin(SimpleHistoryAdmin):
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


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["name", "club", "email", "rating", "rated_games", "created_at"]
    search_fields = ["name", "club", "email", "search_text"]
    list_filter = ["club"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # A player's name and rating show on every competition they are in.
        for competition in Competition.objects.filter(entries__player=obj).distinct():
            competition_touch(competition)


class CompetitionInline(admin.TabularInline):
    model = Competition
    fields = ["name", "slug", "format", "status"]
    extra = 0
    show_change_link = True


@admin.register(Event)
class EventAdmin(SimpleHistoryAdmin):
    list_display = ["name", "slug", "starts_on", "ends_on", "venue", "is_public"]
    list_filter = ["is_public", "starts_on"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [CompetitionInline]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        # The event's name, venue and its competitions show on every public page of it.
        Event.objects.filter(pk=form.instance.pk).update(version=F("version") + 1)
        Competition.objects.filter(event=form.instance).update(version=F("version") + 1)


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["player", "registered_at", "checked_in_at", "withdrawn_at"]
    readonly_fields = ["registered_at"]
    raw_id_fields = ["player"]
    extra = 0

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("player")


@admin.register(Competition)
class CompetitionAdmin(TouchingAdmin):
    list_display = ["name", "event", "format", "status", "entry_count"]
    list_filter = ["format", "status"]
    list_select_related = ["event"]
    search_fields = ["name", "event__name"]
    inlines = [EntryInline]

    def competition_of(self, obj: Competition) -> Competition:
        return obj

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return super().get_queryset(request).annotate(entries_total=Count("entries"))

    @admin.display(description=_("entries"), ordering="entries_total")
    def entry_count(self, obj: WithAnnotations[Competition, EntriesTotal]) -> int:
        return obj.entries_total


@admin.register(Entry)
class EntryAdmin(TouchingAdmin):
    list_display = ["player", "competition", "registered_at", "checked_in_at", "withdrawn_at"]
    list_filter = ["competition__format", ("withdrawn_at", admin.EmptyFieldListFilter)]
    list_select_related = ["player", "competition__event"]
    search_fields = [
        "player__name",
        "player__club",
        "competition__name",
        "competition__event__name",
    ]
    raw_id_fields = ["player", "competition"]

    def competition_of(self, obj: Entry) -> Competition:
        return obj.competition


@admin.register(Session)
class SessionAdmin(TouchingAdmin):
    list_display = ["__str__", "competition", "kind", "number", "starts_at"]
    list_filter = ["kind"]
    list_select_related = ["competition__event"]
    search_fields = ["name", "competition__name", "competition__event__name"]
    raw_id_fields = ["competition"]

    def competition_of(self, obj: Session) -> Competition:
        return obj.competition


@admin.register(Round)
class RoundAdmin(TouchingAdmin):
    list_display = ["__str__", "session", "seed", "started_at"]
    list_select_related = ["session__competition__event"]
    search_fields = ["session__competition__name"]
    raw_id_fields = ["session"]

    def competition_of(self, obj: Round) -> Competition:
        return obj.session.competition


def _seat_scores_derived(game: Game | None) -> bool:
    """Whether the game's format computes seat score and points from its own detail table (a
    Blokus hand, edited in its own admin); editing them here would bypass the rules."""
    if game is None or not game.pk:
        return False
    return game.round.session.competition.game_format.derived_seat_scores


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["position", "entry", "colour", "score", "points"]
    raw_id_fields = ["entry"]
    extra = 0

    def get_readonly_fields(self, request, obj=None):
        if _seat_scores_derived(obj):
            return ["score", "points"]
        return []

    def get_queryset(self, request: HttpRequest) -> QuerySet[Seat]:
        return super().get_queryset(request).select_related("entry__player")


@admin.register(Game)
class GameAdmin(TouchingAdmin):
    list_display = ["__str__", "round", "status", "updated_at"]
    list_filter = ["status"]
    list_select_related = ["round__session__competition__event"]
    search_fields = ["round__session__competition__name", "seats__entry__player__name"]
    raw_id_fields = ["round"]
    inlines = [SeatInline]

    def competition_of(self, obj: Game) -> Competition:
        return obj.round.session.competition

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        competition_touch(self.competition_of(form.instance))


@admin.register(Seat)
class SeatAdmin(TouchingAdmin):
    list_display = ["__str__", "entry", "colour", "score", "points"]
    list_select_related = ["game__round__session__competition", "entry__player"]
    search_fields = ["entry__player__name"]
    raw_id_fields = ["game", "entry"]

    def competition_of(self, obj: Seat) -> Competition:
        return obj.game.round.session.competition

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and _seat_scores_derived(obj.game):
            return ["score", "points"]
        return []
