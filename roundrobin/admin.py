"""Admin for the round robin's records; every save bumps the competition's version.

Names: every model is "Round-robin …" (a "Round-robin game", not a "game detail"), every row
names its event, competition, table, round and players, every list filters by event,
competition and table and searches by player name, and "View on site" opens the public page
the row shows on.

Results: a game's result (its seats' points and colours) is corrected in Events › Games, which
hands the seats to ``roundrobin.services.seats_correct`` (the format's ``correct_seats``): the
rules' check, a warning and confirmation when later things were drawn from it, the trail, and
ratings, tiebreaks and status recomputed. Admin edits of ``GameDetail`` and ``Withdrawal`` are
validated through ``rules`` (model ``clean()``) and re-apply the competition afterwards.

Deletes: rows that hold results or that results were drawn from (a game with a result, a
tiebreak stage, a withdrawal, a rating snapshot, any turn of the clock) are refused on the
delete page, which names what holds them; rating changes are derived (read-only, with history)
and are recomputed, never deleted by hand.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from events.admin import (
    CompetitionFilter,
    EventFilter,
    SessionFilter,
    TouchingAdmin,
    filter_on,
)
from events.models import Competition, Entry, Game
from roundrobin import selectors, services
from roundrobin.models import (
    GameDetail,
    Leave,
    PlayerToken,
    RatingChange,
    RatingSnapshot,
    ResultReport,
    TiebreakStage,
    Turn,
    Withdrawal,
    game_words,
)

GAME = "game__round__session__competition"
ENTRY = "entry__competition"


def _game_filters(prefix: str = "game__") -> list[Any]:
    return [
        filter_on(EventFilter, f"{prefix}round__session__competition__event"),
        filter_on(CompetitionFilter, f"{prefix}round__session__competition"),
        filter_on(SessionFilter, f"{prefix}round__session"),
    ]


def _entry_filters(prefix: str = "entry__") -> list[Any]:
    return [
        filter_on(EventFilter, f"{prefix}competition__event"),
        filter_on(CompetitionFilter, f"{prefix}competition"),
    ]


def _game_related(prefix: str = "game__") -> list[str]:
    return [f"{prefix}round__session__competition__event", f"{prefix}round__rr_stage"]


def _tables_url(competition: Competition, number: int | None = None) -> str:
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
            return _tables_url(game.round.session.competition, game.round.session.number)
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
        return deleted, model_count, perms_needed, [*protected, *reasons]


GAME_PREFETCH = ("game__seats__entry__player",)


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
    list_filter = [*_entry_filters(), "table"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    autocomplete_fields = ["entry"]

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
    autocomplete_fields = ["round", "table"]

    def competition_of(self, obj: TiebreakStage) -> Competition:
        return obj.table.competition

    @admin.display(description=gettext_lazy("table"))
    def table(self, obj: TiebreakStage) -> str:
        return str(obj.table.number)

    def view_on_site(self, obj: TiebreakStage) -> str | None:
        return _tables_url(obj.table.competition, obj.table.number)

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
    list_filter = [*_game_filters(), "ending", "struck", "rated"]
    list_select_related = _game_related()
    prefetch = GAME_PREFETCH
    search_fields = ["game__seats__entry__player__name", "game__round__session__competition__name"]
    autocomplete_fields = ["game"]
    actions = ["recompute"]

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
    list_select_related = ["player", "competition__event", *_game_related()]
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
    list_filter = [*_entry_filters(), "effect"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    autocomplete_fields = ["entry"]

    def competition_of(self, obj: Withdrawal) -> Competition:
        return obj.entry.competition

    def held(self, obj: Withdrawal) -> str:
        return _("%(row)s: the withdrawal struck or forfeited games, and those results stay") % {
            "row": obj
        }


OPEN_TURN_NOTE = gettext_lazy(
    "This turn is open: it closes by itself when both players have moved or at its deadline, "
    "and then the next turn opens. To give the players more time, change the deadline (this "
    "turn only; later turns are the competition's hours per move). It cannot be closed here: "
    "a turn closed by hand would leave the game without an open turn."
)


@admin.register(Turn)
class TurnAdmin(RoundRobinAdmin):
    """Clock corrections (a deadline, a move's time, a wrongly missed turn), with history.

    Saving re-checks the row through ``Turn.clean``; the next ``process_deadlines`` run picks
    up a corrected open turn. A correction of a closed turn that decided a game is a result
    correction: record it at the desk.

    An open turn's ``closed_at`` and missed flags are read-only (decision): closing it by hand
    would leave the game with no open turn (moves refused, never swept). What an organiser
    changes on an open turn is its deadline; the clock then closes it and opens the next.
    Turns are never deleted: the misses and time losses were counted from them, and never
    added here (decision): the clock opens each turn with its number, mover and deadline when
    the previous one closes; a turn added by hand would be a second open turn or one without
    its mover (alternating turns).
    """

    OPEN_READ_ONLY = ("closed_at", "first_missed", "second_missed")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    list_display = [
        "players",
        "event",
        "competition",
        "table",
        "turn_of_table",
        "number",
        "opened_at",
        "deadline",
        "closed_at",
        "first_missed",
        "second_missed",
        "mover",
    ]
    list_filter = [
        *_game_filters(),
        ("closed_at", admin.EmptyFieldListFilter),
        "first_missed",
        "second_missed",
    ]
    list_select_related = _game_related()
    prefetch = GAME_PREFETCH
    search_fields = ["game__seats__entry__player__name", "game__round__session__competition__name"]
    autocomplete_fields = ["game"]
    date_hierarchy = "deadline"

    def competition_of(self, obj: Turn) -> Competition:
        return obj.game.round.session.competition

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        # ``mover`` follows from the competition's setting and the turn's parity (N-RR-31):
        # never set by hand.
        fields = [*super().get_readonly_fields(request, obj), "mover"]
        if obj is not None and obj.closed_at is None:
            fields += [name for name in self.OPEN_READ_ONLY if name not in fields]
        return fields

    def get_fieldsets(self, request: HttpRequest, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and obj.closed_at is None:
            (name, options), *rest = fieldsets
            return [(name, {**options, "description": OPEN_TURN_NOTE}), *rest]
        return fieldsets

    def held(self, obj: Turn) -> str:
        return _(
            "%(row)s: the game's clock (misses, time losses) was counted from its turns; "
            "change a deadline instead"
        ) % {"row": obj}


@admin.register(PlayerToken)
class PlayerTokenAdmin(RoundRobinAdmin):
    list_display = ["player", "event", "competition", "created_at"]
    list_filter = _entry_filters()
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    autocomplete_fields = ["entry"]
    actions = ["renew"]

    def competition_of(self, obj: PlayerToken) -> Competition:
        return obj.entry.competition

    @admin.action(description=gettext_lazy("Replace the links (the old ones stop working)"))
    def renew(self, request: HttpRequest, queryset) -> None:
        count = 0
        for token in queryset:
            token.token = secrets.token_urlsafe(32)
            token.save(update_fields=["token"])
            count += 1
        self.message_user(
            request,
            ngettext("Replaced %(count)s link.", "Replaced %(count)s links.", count)
            % {"count": count},
        )


@admin.register(ResultReport)
class ResultReportAdmin(RoundRobinAdmin):
    list_display = ["player", "players", "event", "competition", "table", "result", "at"]
    list_filter = [*_game_filters(), "result"]
    list_select_related = ["entry__player", *_game_related()]
    prefetch = GAME_PREFETCH
    search_fields = ["entry__player__name", "game__seats__entry__player__name"]
    autocomplete_fields = ["game", "entry"]

    def competition_of(self, obj: ResultReport) -> Competition:
        return obj.entry.competition


@admin.register(Leave)
class LeaveAdmin(RoundRobinAdmin):
    """Leave days (L-RR-01..04), read-only with history: a leave moved the deadlines of the
    player's games when it was announced (``services.leave.leave_take``, from the private page
    or the desk's table page), so it is neither added, changed nor deleted here."""

    list_display = ["player", "event", "competition", "starts_at", "ends_at", "days", "by_desk"]
    list_filter = [*_entry_filters(), "by_desk"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    date_hierarchy = "starts_at"

    def competition_of(self, obj: Leave) -> Competition:
        return obj.entry.competition

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
