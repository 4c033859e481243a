"""Blokus's part in "Help at table N" (``events.help.contract.HelpTables``): the tables of the
round drawn last, and the table a player sits at in it."""

from __future__ import annotations

from django.db.models import Subquery

from events.help.contract import HelpTables
from events.models import Competition, Entry, Game, Round, Seat


def _latest_round(competition_id: int) -> Subquery:
    """The round drawn last (sessions are played one after another; the final is drawn last)."""
    return Subquery(
        Round.objects.filter(session__competition_id=competition_id, games__isnull=False)
        .order_by("-pk")
        .values("pk")[:1]
    )


class BlokusHelpTables(HelpTables):
    def help_tables(self, competition: Competition) -> list[int]:
        return list(
            Game.objects.filter(round_id=_latest_round(competition.pk))
            .order_by("number")
            .values_list("number", flat=True)
        )

    def help_table_of(self, entry: Entry) -> int | None:
        return (
            Seat.objects.filter(entry=entry, game__round_id=_latest_round(entry.competition_id))
            .values_list("game__number", flat=True)
            .first()
        )
