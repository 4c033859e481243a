"""The Blokus print items' reads: the drawn rounds (the final last), the tables of a round or a
session, the hosting club's logo, the rating over the competition; real database."""

from __future__ import annotations

import pytest

from blokus import rules
from blokus.models import RatingStep
from blokus.selectors.printing import (
    PrintedRound,
    club_logo,
    printed_games,
    printed_rounds,
    rating_changes,
)
from events.models import HostClub
from tests.support.blokus import played, qualified, seated_round, small
from tests.support.clubs import encoded, halves

pytestmark = pytest.mark.django_db


def test_the_drawn_rounds_come_session_by_session_and_the_final_last(event):
    competition, _game = qualified(event)
    assert printed_rounds(competition) == [PrintedRound(1, 1, 1), PrintedRound(0, 1, 1)]
    assert printed_rounds(competition)[-1].is_final


def test_a_round_without_tables_is_not_printed(event):
    competition = small(event, sessions=2)
    seated_round(competition, competition.sessions.get(number=2), 8)
    assert printed_rounds(competition) == [PrintedRound(2, 1, 2)]


def test_the_tables_of_a_round_or_of_a_session_in_order(event, django_assert_num_queries):
    competition = played(event, players=8, rounds=2)
    with django_assert_num_queries(1):
        session = printed_games(competition, session=1)
    assert [(g.game.round.number, g.game.number) for g in session] == [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
    ]
    assert all(len(g.seats) == 4 for g in session)
    second = printed_games(competition, session=1, round_number=2)
    assert [g.game.pk for g in second] == [g.game.pk for g in session[2:]]
    assert printed_games(competition, session=0) == []
    assert printed_games(competition, session=1, round_number=3) == []


def test_the_club_logo_is_the_hosting_clubs(event):
    competition = small(event)
    assert club_logo(competition) == b""
    png = encoded(halves(), "PNG")
    HostClub.objects.filter(pk=event.host_id).update(logo=png)
    assert club_logo(competition) == png


def test_the_rating_runs_from_the_first_game_to_the_last(event, django_assert_num_queries):
    competition = played(event, players=8, rounds=2)
    with django_assert_num_queries(2):
        spans = rating_changes(competition)
    assert len(spans) == 8
    entry = competition.entries.select_related("player").first()
    steps = list(RatingStep.objects.filter(player=entry.player).order_by("order_key"))
    assert len(steps) == 2
    first = rules.conservative(steps[0].mu_before, steps[0].sigma_before)
    assert spans[entry.pk] == (pytest.approx(first), pytest.approx(steps[-1].conservative_after))
