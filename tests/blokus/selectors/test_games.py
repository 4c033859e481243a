"""A player's games and one game for result entry (``blokus.selectors.games``)."""

from __future__ import annotations

import pytest
from django.http import Http404

from blokus import selectors, services
from tests.support.blokus import record, seated_round, small


@pytest.fixture
def two_rounds(event):
    """Eight players: round 1 played at both tables, round 2 drawn."""
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.order_by("number"):
        record(game, [0, 1, 2, 3])
    services.round_draw(session=session, seed=2)
    return competition, session, first


def test_a_players_games_come_in_round_order_with_all_four_seats(two_rounds):
    competition, session, first = two_rounds
    game = first.games.order_by("number").first()
    entry = game.seats.get(position=1).entry
    games = selectors.player_games(competition, entry)
    assert [g.round.number for g in games] == [1, 2]
    assert all(len(g.game.seats) == 4 and g.games == [g.game] for g in games)
    assert games[0].mine.entry.pk == entry.pk and games[0].mine.score == 5


def test_a_game_of_another_competition_is_404(event, two_rounds):
    competition, session, first = two_rounds
    game = first.games.order_by("number").first()
    found, seats = selectors.game_for_competition(competition, game.pk)
    assert found == game and [s.seat.position for s in seats] == [1, 2, 3, 4]
    other = small(event, slug="other")
    with pytest.raises(Http404):
        selectors.game_for_competition(other, game.pk)
    with pytest.raises(Http404):
        selectors.entry_of(other, seats[0].entry.pk)


def test_a_later_round_and_the_final_are_seen_from_an_earlier_game(two_rounds):
    competition, session, first = two_rounds
    game = first.games.order_by("number").first()
    second = session.rounds.get(number=2)
    assert selectors.later_round_drawn(game)
    assert not selectors.later_round_drawn(second.games.first())
    assert not selectors.final_seated_after(game)
