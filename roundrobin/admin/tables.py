"""Admin of the tables and what is drawn from their results: rating snapshots, tiebreak stages,
games (their detail row), rating changes and withdrawals.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from events.admin import CompetitionFilter, EventFilter, SessionFilter, filter_on
from events.models import Competition
from roundrobin import selectors, services
from roundrobin.admin.base import (
    GAME_PREFETCH,
    RoundRobinAdmin,
    entry_filters,
    game_filters,
    game_related,
    tables_url,
)
from roundrobin.models import (
    GameDetail,
    RatingChange,
    RatingSnapshot,
    TiebreakStage,
    Withdrawal,
    game_words,
)


@admin.register(RatingSnapshot)
class RatingSnapshotAdmin(RoundRobinAdmin):
    list_display = [
        "player",
        "event",
        "competition",
        "table",
        "seed",
        "rating",
        "rated_games",
        "provisional",
        "taken_at",
    ]
    list_filter = [*entry_filters(), "table"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    autocomplete_fields = ["entry"]
    # Drawn at the start with the tables: which table and seed is the draw's, not an edit's.
    readonly_fields = ["entry", "table", "seed", "taken_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # snapshots are taken when the tables are drawn

    def competition_of(self, obj: RatingSnapshot) -> Competition:
        return obj.entry.competition

    @admin.display(description=gettext_lazy("table"), ordering="table")
    def table(self, obj: RatingSnapshot) -> str:
        return str(obj.table)

    def held(self, obj: RatingSnapshot) -> str:
        return _("%(row)s: the tables and ratings were drawn from this snapshot") % {"row": obj}


@admin.register(TiebreakStage)
class TiebreakStageAdmin(RoundRobinAdmin):
    list_display = ["__str__", "event", "competition", "table", "kind", "attempt", "place"]
    list_filter = [
        filter_on(EventFilter, "table__competition__event"),
        filter_on(CompetitionFilter, "table__competition"),
        filter_on(SessionFilter, "table"),
        "kind",
    ]
    list_select_related = ["table__competition__event", "round"]
    search_fields = ["table__competition__name", "round__games__seats__entry__player__name"]
    # A stage follows from the table's results (services.tiebreaks): shown, never edited;
    # correct a result and the stages follow.
    readonly_fields = ["round", "table", "kind", "attempt", "place", "players_key"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def competition_of(self, obj: TiebreakStage) -> Competition:
        return obj.table.competition

    @admin.display(description=gettext_lazy("table"))
    def table(self, obj: TiebreakStage) -> str:
        return str(obj.table.number)

    def view_on_site(self, obj: TiebreakStage) -> str | None:
        return tables_url(obj.table.competition, obj.table.number)

    def held(self, obj: TiebreakStage) -> str:
        return _(
            "%(row)s: tiebreak stages follow from the table's results; correct a result "
            "instead (a stage no longer needed is cancelled or removed by itself)"
        ) % {"row": obj}


@admin.register(GameDetail)
class GameDetailAdmin(RoundRobinAdmin):
    list_display = [
        "players",
        "event",
        "competition",
        "table",
        "turn_of_table",
        "result",
        "ending",
        "struck",
        "rated",
        "ended_at",
    ]
    list_filter = [*game_filters(), "ending", "struck", "rated"]
    list_select_related = game_related()
    prefetch = GAME_PREFETCH
    search_fields = ["game__seats__entry__player__name", "game__round__session__competition__name"]
    autocomplete_fields = ["game"]
    actions = ["recompute"]
    # Set by the desk's withdrawal and adjudication, which write the correction trail.
    readonly_fields = ["struck", "adjudicated"]

    def competition_of(self, obj: GameDetail) -> Competition:
        return obj.game.round.session.competition

    @admin.display(description=gettext_lazy("result"))
    def result(self, obj: GameDetail) -> str:
        seats = sorted(obj.game.seats.all(), key=lambda seat: seat.position)
        points = [seat.points for seat in seats]
        if not obj.has_result or len(points) != 2:
            return ""
        return "-".join(selectors.points_label(value) or "?" for value in points)

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        services.competition_recompute(competition=self.competition_of(obj))

    def held(self, obj: GameDetail) -> str:
        if not obj.is_over:
            return ""
        return _(
            "%(game)s: its result (%(ending)s) counts in the standings and ratings; correct "
            "it instead"
        ) % {"game": game_words(obj.game), "ending": obj.get_ending_display()}

    @admin.action(description=gettext_lazy("Re-apply ratings, tiebreaks and status"))
    def recompute(self, request: HttpRequest, queryset) -> None:
        """Re-apply the selected games' competitions; games whose seats hold no result are
        named instead of stopping the action."""
        ids = set(queryset.values_list("game__round__session__competition", flat=True))
        attention: list[str] = []
        for competition in Competition.objects.filter(pk__in=ids):
            services.competition_recompute(competition=competition)
            for table in selectors.tables_for_competition(competition):
                attention += [
                    _("%(competition)s, table %(table)s: %(white)s – %(black)s holds %(points)s")
                    % {
                        "competition": competition.name,
                        "table": table.number,
                        "white": view.white.player.name,
                        "black": view.black.player.name,
                        "points": view.stored_result,
                    }
                    for view in table.attention
                ]
        self.message_user(
            request,
            ngettext(
                "Re-applied %(count)s competition.", "Re-applied %(count)s competitions.", len(ids)
            )
            % {"count": len(ids)},
        )
        if attention:
            self.message_user(
                request,
                _(
                    "These games need attention: their seats hold no result (1-0, ½-½, 0-1 or "
                    "0-0), so they are not counted. Correct them in Games: %(games)s."
                )
                % {"games": "; ".join(attention)},
                level=messages.WARNING,
            )


@admin.register(RatingChange)
class RatingChangeAdmin(RoundRobinAdmin):
    """Derived from the results (``services.ratings``): read-only, with history."""

    list_display = [
        "player_name",
        "event",
        "competition",
        "table",
        "players",
        "before",
        "after",
        "change",
        "k",
        "at",
    ]
    list_filter = [
        filter_on(EventFilter, "competition__event"),
        filter_on(CompetitionFilter, "competition"),
        filter_on(SessionFilter, "game__round__session"),
    ]
    list_select_related = ["player", "competition__event", *game_related()]
    prefetch = GAME_PREFETCH
    search_fields = ["player__name", "competition__name"]
    autocomplete_fields = ["player", "competition", "game", "entry"]

    def competition_of(self, obj: RatingChange) -> Competition:
        return obj.competition

    @admin.display(description=gettext_lazy("player"), ordering="player__name")
    def player_name(self, obj: RatingChange) -> str:
        return obj.player.name

    def view_on_site(self, obj: RatingChange) -> str | None:
        competition = obj.competition
        return reverse(
            "roundrobin:player", args=[competition.event.slug, competition.slug, obj.entry_id]
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Withdrawal)
class WithdrawalAdmin(RoundRobinAdmin):
    list_display = ["player", "event", "competition", "effect", "finished", "scheduled", "at"]
    list_filter = [*entry_filters(), "effect"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    autocomplete_fields = ["entry"]

    def competition_of(self, obj: Withdrawal) -> Competition:
        return obj.entry.competition

    def held(self, obj: Withdrawal) -> str:
        return _("%(row)s: the withdrawal struck or forfeited games, and those results stay") % {
            "row": obj
        }
