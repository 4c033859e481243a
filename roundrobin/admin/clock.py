"""Admin of the correspondence clock: turns, private links, result reports and leave."""

from __future__ import annotations

import secrets

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from events.models import Competition
from roundrobin.admin.base import (
    GAME_PREFETCH,
    RoundRobinAdmin,
    entry_filters,
    game_filters,
    game_related,
)
from roundrobin.models import Leave, PlayerToken, ResultReport, Turn

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
        *game_filters(),
        ("closed_at", admin.EmptyFieldListFilter),
        "first_missed",
        "second_missed",
    ]
    list_select_related = game_related()
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
    list_filter = entry_filters()
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
    list_filter = [*game_filters(), "result"]
    list_select_related = ["entry__player", *game_related()]
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
    list_filter = [*entry_filters(), "by_desk"]
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
