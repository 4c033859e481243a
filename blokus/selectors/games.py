"""Games: a player's, with all four seats, and one game for result entry."""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from blokus.models import SessionPlayer
from blokus.selectors.tables import GameRow, SeatRow, seat_rows, seats_query
from events.models import Competition, Entry, Game, Round, Seat, Session


@dataclass
class PlayerGame:
    session: Session
    round: Round
    game: GameRow
    mine: SeatRow

    @property
    def games(self) -> list[GameRow]:
        return [self.game]


def player_games(competition: Competition, entry: Entry) -> list[PlayerGame]:
    """Every game of one player with all four seats (2 queries)."""
    mine = list(
        Seat.objects.filter(entry=entry, game__round__session__competition=competition)
        .select_related("game__round__session")
        .values_list("game_id", flat=True)
    )
    seats = list(
        seats_query()
        .select_related("game__round__session")
        .filter(game_id__in=mine)
        .order_by("game__round__session__number", "game__round__number", "position")
    )
    dropped = {
        p.entry_id: p.out_span
        for p in SessionPlayer.objects.filter(entry=entry, dropped_after_round__isnull=False)
    }
    rows = seat_rows(seats, dropped)
    result = []
    seen = set()
    for seat in seats:
        if seat.game_id in seen:
            continue
        seen.add(seat.game_id)
        game_rows = rows[seat.game_id]
        me = next(r for r in game_rows if r.entry.pk == entry.pk)
        result.append(
            PlayerGame(
                session=seat.game.round.session,
                round=seat.game.round,
                game=GameRow(game=seat.game, seats=game_rows),
                mine=me,
            )
        )
    return result


def entry_of(competition: Competition, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), competition=competition, pk=entry_id
    )


def game_for_competition(competition: Competition, game_id: int) -> tuple[Game, list[SeatRow]]:
    """A game of this competition with its seats (2 queries); 404 for another's game."""
    game = get_object_or_404(
        Game.objects.select_related("round__session"),
        pk=game_id,
        round__session__competition=competition,
    )
    seats = list(seats_query().filter(game=game))
    dropped: dict[int, tuple[int | None, int | None]] = {}
    if game.round.session.kind == Session.Kind.QUALIFYING:
        dropped = dict(
            (entry_id, (after, back))
            for entry_id, after, back in SessionPlayer.objects.filter(
                session=game.round.session, dropped_after_round__isnull=False
            ).values_list("entry_id", "dropped_after_round", "back_from_round")
        )
    return game, seat_rows(seats, dropped)[game.pk]


def final_seated_after(game: Game) -> bool:
    """A qualifying game whose correction comes after the final was seated."""
    return (
        game.round.session.kind == Session.Kind.QUALIFYING
        and Session.objects.filter(
            competition_id=game.round.session.competition_id, kind=Session.Kind.FINAL
        ).exists()
    )


def later_round_drawn(game: Game) -> bool:
    """A later round of a qualifying session (the final's later rounds are its replays)."""
    return Round.objects.filter(
        session=game.round.session_id,
        session__kind=Session.Kind.QUALIFYING,
        number__gt=game.round.number,
    ).exists()
