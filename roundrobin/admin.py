"""Admin for the round robin's records; every save bumps the competition's version.

Admin edits of ``GameDetail`` and ``Withdrawal`` are validated through ``rules`` (model
``clean()``); a result itself is corrected at the desk (the table page), which also re-applies
ratings and tiebreaks. ``RatingChange`` rows are derived data and read-only here.
"""

from __future__ import annotations

import secrets

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext as _

from events.admin import TouchingAdmin
from events.models import Competition
from roundrobin import services
from roundrobin.models import (
    GameDetail,
    PlayerToken,
    RatingChange,
    RatingSnapshot,
    ResultReport,
    TiebreakStage,
    Turn,
    Withdrawal,
)


@admin.register(RatingSnapshot)
class RatingSnapshotAdmin(TouchingAdmin):
    list_display = ["entry", "rating", "rated_games", "provisional", "seed", "table", "taken_at"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    raw_id_fields = ["entry"]

    def competition_of(self, obj: RatingSnapshot) -> Competition:
        return obj.entry.competition


@admin.register(TiebreakStage)
class TiebreakStageAdmin(TouchingAdmin):
    list_display = ["__str__", "kind", "attempt", "place", "players_key"]
    list_select_related = ["table__competition__event", "round"]
    search_fields = ["table__competition__name"]
    raw_id_fields = ["round", "table"]

    def competition_of(self, obj: TiebreakStage) -> Competition:
        return obj.table.competition


@admin.register(GameDetail)
class GameDetailAdmin(TouchingAdmin):
    list_display = ["game", "ending", "struck", "rated", "ended_at"]
    list_filter = ["ending", "struck", "rated"]
    list_select_related = ["game__round__session__competition__event"]
    search_fields = ["game__seats__entry__player__name", "game__round__session__competition__name"]
    raw_id_fields = ["game"]
    actions = ["recompute"]

    def competition_of(self, obj: GameDetail) -> Competition:
        return obj.game.round.session.competition

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        services.competition_recompute(competition=self.competition_of(obj))

    @admin.action(description=_("Re-apply ratings, tiebreaks and status of their competitions"))
    def recompute(self, request: HttpRequest, queryset) -> None:
        """After seat points were corrected in the game admin (events), which knows nothing
        of ratings and tiebreaks."""
        ids = set(queryset.values_list("game__round__session__competition", flat=True))
        for competition in Competition.objects.filter(pk__in=ids):
            services.competition_recompute(competition=competition)
        self.message_user(request, _("Re-applied %(count)s competitions.") % {"count": len(ids)})


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["player", "competition", "game", "before", "after", "change", "k", "at"]
    list_select_related = ["player", "competition__event", "game"]
    search_fields = ["player__name", "competition__name"]
    raw_id_fields = ["player", "competition", "game", "entry"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Withdrawal)
class WithdrawalAdmin(TouchingAdmin):
    list_display = ["entry", "effect", "finished", "scheduled", "at"]
    list_filter = ["effect"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    raw_id_fields = ["entry"]

    def competition_of(self, obj: Withdrawal) -> Competition:
        return obj.entry.competition


OPEN_TURN_NOTE = _(
    "This turn is open: it closes by itself when both players have moved or at its deadline, "
    "and then the next turn opens. To give the players more time, change the deadline (this "
    "turn only; later turns are the competition's hours per move). It cannot be closed here: "
    "a turn closed by hand would leave the game without an open turn."
)


@admin.register(Turn)
class TurnAdmin(TouchingAdmin):
    """Clock corrections (a deadline, a move's time, a wrongly missed turn), with history.

    Saving re-checks the row through ``Turn.clean``; the next ``process_deadlines`` run picks
    up a corrected open turn. A correction of a closed turn that decided a game is a result
    correction: record it at the desk.

    An open turn's ``closed_at`` and missed flags are read-only (decision): closing it by hand
    would leave the game with no open turn (moves refused, never swept). What an organiser
    changes on an open turn is its deadline; the clock then closes it and opens the next.
    """

    OPEN_READ_ONLY = ("closed_at", "first_missed", "second_missed")

    list_display = [
        "game",
        "number",
        "opened_at",
        "deadline",
        "closed_at",
        "first_missed",
        "second_missed",
    ]
    list_filter = ["first_missed", "second_missed"]
    list_select_related = ["game__round__session__competition__event"]
    search_fields = ["game__seats__entry__player__name", "game__round__session__competition__name"]
    raw_id_fields = ["game"]
    date_hierarchy = "deadline"

    def competition_of(self, obj: Turn) -> Competition:
        return obj.game.round.session.competition

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.closed_at is None:
            fields += [name for name in self.OPEN_READ_ONLY if name not in fields]
        return fields

    def get_fieldsets(self, request: HttpRequest, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and obj.closed_at is None:
            (name, options), *rest = fieldsets
            return [(name, {**options, "description": OPEN_TURN_NOTE}), *rest]
        return fieldsets


@admin.register(PlayerToken)
class PlayerTokenAdmin(TouchingAdmin):
    list_display = ["entry", "created_at"]
    list_select_related = ["entry__player", "entry__competition__event"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    raw_id_fields = ["entry"]
    actions = ["renew"]

    def competition_of(self, obj: PlayerToken) -> Competition:
        return obj.entry.competition

    @admin.action(description=_("Replace the links (the old ones stop working)"))
    def renew(self, request: HttpRequest, queryset) -> None:
        count = 0
        for token in queryset:
            token.token = secrets.token_urlsafe(32)
            token.save(update_fields=["token"])
            count += 1
        self.message_user(request, _("Replaced %(count)s links.") % {"count": count})


@admin.register(ResultReport)
class ResultReportAdmin(TouchingAdmin):
    list_display = ["game", "entry", "result", "at"]
    list_select_related = ["entry__player", "game"]
    search_fields = ["entry__player__name"]
    raw_id_fields = ["game", "entry"]

    def competition_of(self, obj: ResultReport) -> Competition:
        return obj.entry.competition
