"""Admin for the Blokus detail tables. A hand changed here recomputes its seat's score and the
points of its whole table (through the same rules), bumps the game's revision (so that a desk
form opened before the edit is refused instead of undoing it) and the competition's version.

Seating (role, roll call, drop-out) is read-only here: it is corrected at the desk, whose
services keep the tables, the rounds and the points consistent."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from blokus import services
from blokus.models import Hand, QualificationLot, SessionNotHeld, SessionPlayer
from events.admin import TouchingAdmin
from events.models import Competition

SEATING_FIELDS = ["role", "roll_call", "checked_in_at", "dropped_after_round"]


@admin.register(SessionPlayer)
class SessionPlayerAdmin(TouchingAdmin):
    list_display = ["entry", "session", "role", "roll_call", "checked_in_at", "dropped_after_round"]
    list_filter = ["role"]
    list_select_related = ["entry__player", "session__competition__event"]
    search_fields = ["entry__player__name", "session__competition__name"]
    raw_id_fields = ["session", "entry"]
    readonly_fields = SEATING_FIELDS

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:  # moving a player to another session or entry: through the desk
            return ["session", "entry", *SEATING_FIELDS]
        return SEATING_FIELDS

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "subtitle": _(
                "Check-in, seating, reserves and drop-outs are corrected on the session's desk "
                "page, which keeps the tables and points consistent."
            ),
        }
        return super().changeform_view(request, object_id, form_url, extra_context)

    def competition_of(self, obj: SessionPlayer) -> Competition:
        return obj.session.competition


@admin.register(SessionNotHeld)
class SessionNotHeldAdmin(TouchingAdmin):
    list_display = ["session", "reason", "recorded_at"]
    list_select_related = ["session__competition__event"]
    search_fields = ["session__competition__name", "reason"]
    raw_id_fields = ["session"]

    def competition_of(self, obj: SessionNotHeld) -> Competition:
        return obj.session.competition


@admin.register(Hand)
class HandAdmin(TouchingAdmin):
    list_display = ["seat", "squares_left", "monomino_last", "pieces"]
    list_select_related = ["seat__game__round__session__competition", "seat__entry__player"]
    search_fields = ["seat__entry__player__name"]
    raw_id_fields = ["seat"]

    def get_readonly_fields(self, request, obj=None):
        return ["seat"] if obj is not None else []

    def competition_of(self, obj: Hand) -> Competition:
        return obj.seat.game.round.session.competition

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        services.game_rescore(obj.seat.game)

    def delete_model(self, request, obj) -> None:
        game_id = obj.seat.game_id
        super().delete_model(request, obj)
        services.game_revision_bump([game_id])

    def delete_queryset(self, request, queryset) -> None:
        game_ids = list(queryset.values_list("seat__game_id", flat=True))
        super().delete_queryset(request, queryset)
        services.game_revision_bump(game_ids)


@admin.register(QualificationLot)
class QualificationLotAdmin(TouchingAdmin):
    list_display = ["competition", "seed", "drawn_at"]
    list_select_related = ["competition__event"]
    search_fields = ["competition__name"]
    raw_id_fields = ["competition"]

    def competition_of(self, obj: QualificationLot) -> Competition:
        return obj.competition
