"""Admin for the Blokus detail tables. A hand changed here recomputes its seat's score and the
points of its whole table (through the same rules), and bumps the competition's version."""

from __future__ import annotations

from django.contrib import admin

from blokus import services
from blokus.models import Hand, QualificationLot, SessionPlayer
from events.admin import TouchingAdmin
from events.models import Competition, Seat, Session


@admin.register(SessionPlayer)
class SessionPlayerAdmin(TouchingAdmin):
    list_display = ["entry", "session", "role", "roll_call", "checked_in_at", "dropped_after_round"]
    list_filter = ["role"]
    list_select_related = ["entry__player", "session__competition__event"]
    search_fields = ["entry__player__name", "session__competition__name"]
    raw_id_fields = ["session", "entry"]

    def competition_of(self, obj: SessionPlayer) -> Competition:
        return obj.session.competition


def rescore_game(seat: Seat) -> None:
    """Recompute every seat of ``seat``'s game from the stored hands (after an admin edit)."""
    game = seat.game
    seats = list(game.seats.select_related("blokus_hand").order_by("position"))
    if not all(hasattr(s, "blokus_hand") for s in seats):
        return
    session = game.round.session
    dropped = (
        services.dropped_entries(session, game.round.number)
        if session.kind == Session.Kind.QUALIFYING
        else set()
    )
    official = services.settings_of(session.competition)["official_bonus"]
    scores, points = services.score_hands(
        [(s.blokus_hand.squares_left, s.blokus_hand.monomino_last) for s in seats],
        [s.entry_id in dropped for s in seats],
        official_bonus=official,
    )
    for s, score, pts in zip(seats, scores, points, strict=True):
        s.score, s.points = score, services.to_decimal(pts)
    Seat.objects.bulk_update(seats, ["score", "points"])


@admin.register(Hand)
class HandAdmin(TouchingAdmin):
    list_display = ["seat", "squares_left", "monomino_last", "pieces"]
    list_select_related = ["seat__game__round__session__competition", "seat__entry__player"]
    search_fields = ["seat__entry__player__name"]
    raw_id_fields = ["seat"]

    def competition_of(self, obj: Hand) -> Competition:
        return obj.seat.game.round.session.competition

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        rescore_game(obj.seat)


@admin.register(QualificationLot)
class QualificationLotAdmin(TouchingAdmin):
    list_display = ["competition", "seed", "drawn_at"]
    list_select_related = ["competition__event"]
    search_fields = ["competition__name"]
    raw_id_fields = ["competition"]

    def competition_of(self, obj: QualificationLot) -> Competition:
        return obj.competition
