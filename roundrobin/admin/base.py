"""What every round-robin admin shares: the columns naming a row's event, competition, table,
round and players, the filters and related rows of a game or an entry, "view on site", and the
refusal to delete rows that hold results.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy

from events.admin import CompetitionFilter, EventFilter, SessionFilter, TouchingAdmin, filter_on
from events.models import Competition, Entry, Game

GAME = "game__round__session__competition"
ENTRY = "entry__competition"


def game_filters(prefix: str = "game__") -> list[Any]:
    return [
        filter_on(EventFilter, f"{prefix}round__session__competition__event"),
        filter_on(CompetitionFilter, f"{prefix}round__session__competition"),
        filter_on(SessionFilter, f"{prefix}round__session"),
    ]


def entry_filters(prefix: str = "entry__") -> list[Any]:
    return [
        filter_on(EventFilter, f"{prefix}competition__event"),
        filter_on(CompetitionFilter, f"{prefix}competition"),
    ]


def game_related(prefix: str = "game__") -> list[str]:
    return [f"{prefix}round__session__competition__event", f"{prefix}round__rr_stage"]


def tables_url(competition: Competition, number: int | None = None) -> str:
    url = reverse("roundrobin:tables", args=[competition.event.slug, competition.slug])
    return f"{url}#table-{number}" if number else url


def _player_url(entry: Entry) -> str:
    competition = entry.competition
    return reverse("roundrobin:player", args=[competition.event.slug, competition.slug, entry.pk])


class RoundRobinAdmin(TouchingAdmin):
    """Shared columns: the event, competition, table and players of a row's game or entry."""

    prefetch: tuple[str, ...] = ()

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        return queryset.prefetch_related(*self.prefetch) if self.prefetch else queryset

    def game_of(self, obj: Any) -> Game | None:
        return getattr(obj, "game", None)

    @admin.display(description=gettext_lazy("event"))
    def event(self, obj: Any) -> str:
        competition = self.competition_of(obj)
        return competition.event.name if competition is not None else ""

    @admin.display(description=gettext_lazy("competition"))
    def competition(self, obj: Any) -> str:
        competition = self.competition_of(obj)
        return competition.name if competition is not None else ""

    @admin.display(description=gettext_lazy("table"))
    def table(self, obj: Any) -> str:
        game = self.game_of(obj)
        return str(game.round.session.number) if game is not None else ""

    @admin.display(description=gettext_lazy("round"))
    def turn_of_table(self, obj: Any) -> str:
        game = self.game_of(obj)
        if game is None:
            return ""
        return (
            _("regular")
            if game.round.number == 1
            else _("tiebreak %(n)s") % {"n": game.round.number - 1}
        )

    @admin.display(description=gettext_lazy("players"))
    def players(self, obj: Any) -> str:
        game = self.game_of(obj)
        if game is None:
            return ""
        seats = sorted(game.seats.all(), key=lambda seat: seat.position)
        return " – ".join(seat.entry.player.name for seat in seats)

    @admin.display(description=gettext_lazy("player"))
    def player(self, obj: Any) -> str:
        return obj.entry.player.name

    def view_on_site(self, obj: Any) -> str | None:
        game = self.game_of(obj)
        if game is not None:
            return tables_url(game.round.session.competition, game.round.session.number)
        entry = getattr(obj, "entry", None)
        if entry is not None:
            return _player_url(entry)
        return super().view_on_site(obj)

    # --- deletes that would lose results --------------------------------------------------

    def held(self, obj: Any) -> str:
        """Why ``obj`` cannot be deleted ("" when it can)."""
        return ""

    def get_deleted_objects(self, objs, request):
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        reasons = [reason for obj in objs if (reason := self.held(obj))]
        if reasons:  # the reason shown, not a missing permission (Django shows that first)
            perms_needed = set()
        return deleted, model_count, perms_needed, [*protected, *reasons]


GAME_PREFETCH = ("game__seats__entry__player",)
