"""The shared shapes of the formats' writes (``events.services.play``): the locked competition a
write starts from once its guards pass, and a round's games with their seats in two queries."""

from __future__ import annotations

import pytest

from events.errors import Refused
from events.models import Game, Seat
from events.services.play import competition_locked, games_create
from tests.support.factories import CompetitionFactory, EntryFactory, RoundFactory


def test_the_competition_is_read_again_after_every_guard(db):
    competition = CompetitionFactory(name="Main")
    seen = []
    locked = competition_locked(competition.pk, lambda c: seen.append(c.name))
    assert locked == competition and seen == ["Main"]

    def closed(c):
        raise Refused("closed")

    with pytest.raises(Refused):
        competition_locked(competition, closed)


def test_games_are_numbered_and_seated_in_playing_order(db, django_assert_num_queries):
    round_ = RoundFactory()
    competition = round_.session.competition
    a, b, c, d = (EntryFactory(competition=competition) for _ in range(4))
    tables = [[(a.pk, "blue"), (b.pk, "yellow")], [(c.pk, "red"), (d.pk, "green")]]
    with django_assert_num_queries(2):
        games = games_create(round_, tables, start_number=3, status=Game.Status.PENDING)
    assert [g.number for g in games] == [3, 4]
    seats = Seat.objects.filter(game__round=round_).order_by("game__number", "position")
    assert [(s.game.number, s.position, s.entry_id, s.colour) for s in seats] == [
        (3, 1, a.pk, "blue"),
        (3, 2, b.pk, "yellow"),
        (4, 1, c.pk, "red"),
        (4, 2, d.pk, "green"),
    ]
