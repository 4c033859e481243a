"""Sjoelen competitions as a series counts them (``events.series.contract.SeriesResults``).

Two queries for any number of competitions (the entries, the games); each competition is then
ranked by the same functions as its standings page and download (``standings.game_row``,
``counted_scores``, ``shown_entries``, ``ranked_rows``), so the numbers agree.

Decisions:
- ``place``: the standings' place, shared places the same number; the title play-off
  (A-SJ-16) is not applied, as the standings download does not apply it either.
- Players without a counted game (checked in, not played yet) are left out: they stand below
  everyone who played (a missing game is below a 0, A-SJ-08), so the other places keep their
  numbers and ``field``, the players kept, is at least every place.
- ``points``: sjoelen gives no competition points, so the total (``Fraction(total)``);
  ``total``: the sum of the counted games; ``games``: the counted games. A stored game that
  breaks the rules (A-SJ-14) counts in none of them, as in the standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from events.models import Competition, Entry
from events.series.contract import SeriesResult
from shuffleboard.models import Turn
from shuffleboard.selectors.standings import (
    ENTRY_COLUMNS,
    ENTRY_ORDER,
    GAME_COLUMNS,
    EntryFacts,
    GameRow,
    counted_scores,
    game_row,
    ranked_rows,
    shown_entries,
)

NUMBER = GAME_COLUMNS.index("number")


def series_results(competitions: Sequence[Competition]) -> list[SeriesResult]:
    """One ``SeriesResult`` per player with a counted game, per competition, in the
    competitions' order and best first (two queries)."""
    by_pk = {competition.pk: competition for competition in competitions}
    ids = list(by_pk)
    if not ids:
        return []
    entries: dict[int, list[EntryFacts]] = defaultdict(list)
    players: dict[int, int] = {}  # entry -> player
    for competition_id, player_id, *values in (
        Entry.objects.filter(competition__in=ids)
        .order_by(*ENTRY_ORDER)
        .values_list("competition_id", "player_id", *ENTRY_COLUMNS)
    ):
        facts = EntryFacts(*values)
        entries[competition_id].append(facts)
        players[facts.pk] = player_id
    options = {pk: competition.options for pk, competition in by_pk.items()}
    games: dict[int, list[GameRow]] = defaultdict(list)
    for competition_id, *values in (
        Turn.objects.filter(entry__competition__in=ids)
        .order_by()
        .values_list("entry__competition_id", *GAME_COLUMNS)
    ):
        settings = options[competition_id]
        # As ``game_rows``: numbers above ``games`` are title play-off games (A-SJ-16).
        if values[NUMBER] <= settings.games:
            games[competition_id].append(game_row(tuple(values), settings.bonus_disc))
    results: list[SeriesResult] = []
    for competition_id in ids:
        rows = games[competition_id]
        shown = shown_entries(entries[competition_id], rows)
        ranked = [
            row
            for row in ranked_rows(shown, counted_scores(rows), options[competition_id])
            if row.games_played
        ]
        results += [
            SeriesResult(
                competition_id=competition_id,
                player_id=players[row.entry_id],
                place=row.place,
                field=len(ranked),
                points=Fraction(row.total),
                total=row.total,
                games=row.games_played,
            )
            for row in ranked
        ]
    return results
