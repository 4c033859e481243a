"""Shared shapes of the formats' writes: the locked competition a write starts from, and a
round's games with their seats."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from events.models import Competition, Game, Round, Seat


def competition_locked(
    competition: Competition | int, *guards: Callable[[Competition], None]
) -> Competition:
    """The competition's row re-read and locked (its writes happen one after another), after
    each guard (``ensure_open`` and the like: they raise the refusal) has passed."""
    pk = competition if isinstance(competition, int) else competition.pk
    locked = Competition.objects.select_for_update(of=("self",)).select_related("event").get(pk=pk)
    for guard in guards:
        guard(locked)
    return locked


def games_create(
    round_: Round,
    tables: Sequence[Sequence[tuple[int, str]]],
    *,
    status: str = Game.Status.PENDING,
    start_number: int = 1,
) -> list[Game]:
    """One game per table in ``round_``, numbered from ``start_number``, each table's seats
    in playing order as ``(entry id, colour)`` pairs: two queries whatever the size."""
    games = Game.objects.bulk_create(
        Game(round=round_, number=number, status=status)
        for number, _table in enumerate(tables, start=start_number)
    )
    Seat.objects.bulk_create(
        Seat(game=game, entry_id=entry_id, position=position, colour=colour)
        for game, table in zip(games, tables, strict=True)
        for position, (entry_id, colour) in enumerate(table, start=1)
    )
    return games
