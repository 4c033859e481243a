"""A game's seats as the pages read them (``blokus.selectors.tables``): rows in seat order and
the "needs attention" check of a stored table the rules cannot have made."""

from __future__ import annotations

import pytest

from blokus import selectors
from blokus.models import Hand
from events.models import Seat
from tests.support.blokus import record, seated_round, small


@pytest.fixture
def played(event):
    """One finished table: 0 (monomino last), 1, 2, 3 squares left."""
    competition = small(event)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    record(game, [0, 1, 2, 3])
    return game


def game_row(game):
    seats = list(selectors.seats_query().filter(game=game))
    rows = selectors.seat_rows(seats, {})[game.pk]
    return selectors.GameRow(game=seats[0].game, seats=rows)


def test_a_recorded_table_reads_in_seat_order_with_its_hands(played):
    row = game_row(played)
    assert [s.seat.position for s in row.seats] == [1, 2, 3, 4]
    assert [s.score for s in row.seats] == [5, -1, -2, -3]
    assert [s.squares_left for s in row.seats] == [0, 1, 2, 3]
    assert row.seats[0].monomino_last and not row.seats[1].monomino_last
    assert row.is_finished and row.problem == "" and not row.needs_attention


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ("score", "score"),
        ("points", "points"),
        ("hand", "missing_hand"),
        ("seat", "seats"),
    ],
)
def test_a_stored_table_the_rules_cannot_make_needs_attention(played, change, problem):
    seat = Seat.objects.filter(game=played).order_by("position").last()
    if change == "score":
        Seat.objects.filter(pk=seat.pk).update(score=0)  # 3 squares left score -3
    elif change == "points":
        Seat.objects.filter(pk=seat.pk).update(points=2)
    elif change == "hand":
        Hand.objects.filter(seat=seat).delete()
    else:
        Seat.objects.filter(game=played).exclude(position=1).delete()
    row = game_row(played)
    assert row.problem == problem and row.needs_attention


def test_a_round_is_finished_when_every_table_is(event):
    competition = small(event)
    round_ = seated_round(competition, competition.sessions.get(), 8)
    first, second = round_.games.order_by("number")
    record(first, [0, 1, 2, 3])
    view = selectors.session_view(competition.sessions.get())
    (row,) = view.rounds
    assert row.finished_count == 1 and not row.is_finished
    record(second, [1, 1, 1, 1])
    (row,) = selectors.session_view(competition.sessions.get()).rounds
    assert row.finished_count == 2 and row.is_finished
