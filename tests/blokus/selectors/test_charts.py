"""The Blokus charts' reads: place by colour and squares left per round, for a player and
for a session."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from blokus import rules, services
from blokus.selectors import charts
from events.models import Entry, Seat
from tests.support.blokus import play_round, record, seated_round, small

pytestmark = pytest.mark.django_db


def colours_of(game) -> dict[int, str]:
    return dict(game.seats.values_list("entry_id", "colour"))


def test_it_gives_a_players_place_by_colour_and_squares_per_round(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    first = seated_round(competition, session, 4)
    [game] = first.games.all()
    record(game, [0, 1, 2, 3])  # places 1, 2, 3, 4 in position order
    winner = Entry.objects.get(pk=game.seats.get(position=1).entry_id)
    second = services.round_draw(session=session, seed=2)
    [again] = second.games.all()
    order = list(again.seats.order_by("position"))
    squares = {s.entry_id: n for s, n in zip(order, [5, 4, 9, 0], strict=True)}
    record(again, [squares[s.entry_id] for s in order])

    chart = charts.player_colours(competition, winner)

    first_colour = colours_of(game)[winner.pk]
    second_colour = colours_of(again)[winner.pk]
    expected_place = 1 + sum(
        1
        for seat in again.seats.all()
        if (seat.score or 0) > Seat.objects.get(game=again, entry=winner).score
    )
    by_colour = {row.colour: row for row in chart.colours}
    assert [row.colour for row in chart.colours] == list(rules.COLOURS)
    assert chart.games == 2
    if first_colour == second_colour:
        assert by_colour[first_colour].games == 2
    else:
        assert by_colour[first_colour].average_place == 1
        assert by_colour[second_colour].average_place == expected_place
    assert [(r.round_number, r.squares[""]) for r in chart.rounds] == [
        (1, 0),
        (2, squares[winner.pk]),
    ]


def test_it_gives_a_sessions_place_and_squares_by_colour(eight_played):
    competition, session, a, b = eight_played
    chart = charts.session_colours(session)
    seats = list(Seat.objects.filter(game__round__session=session).select_related("blokus_hand"))
    for row in chart.colours:
        mine = [s for s in seats if s.colour == row.colour]
        assert row.games == len(mine)
        # the games were 0 (monomino last), 1, 2, 3 squares left: places 1 to 4
        assert row.average_place == Fraction(
            sum(s.blokus_hand.squares_left + 1 for s in mine), len(mine)
        )
    assert [r.round_number for r in chart.rounds] == [1]
    assert sum(row.games for row in chart.colours) == 8


def test_it_leaves_out_unfinished_games(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    seated_round(competition, session, 4)
    chart = charts.session_colours(session)
    assert chart.games == 0
    assert chart.rounds == []
    assert {row.average_place for row in chart.colours} == {None}


@pytest.mark.parametrize("rounds", [1, 4])
def test_it_reads_in_two_queries(event, rounds, django_assert_max_num_queries):
    competition = small(event, rounds=rounds)
    session = competition.sessions.get()
    seated_round(competition, session, 12)
    rng = random.Random(3)
    play_round(session.rounds.get(number=1), rng)
    for number in range(2, rounds + 1):
        play_round(services.round_draw(session=session, seed=number), rng)
    entry = Seat.objects.filter(game__round__session=session).first().entry
    with django_assert_max_num_queries(2):
        mine = charts.player_colours(competition, entry)
    with django_assert_max_num_queries(2):
        everyone = charts.session_colours(session)
    assert mine.games == rounds
    assert everyone.games == 12 * rounds
    assert len(everyone.rounds) == rounds
