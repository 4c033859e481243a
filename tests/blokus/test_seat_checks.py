"""The database's check of what a Blokus seat may state (blokus/migrations/0004_seat_checks.py):
exactly what the rules allow, whatever path writes it."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from blokus import rules, services
from events.errors import Invalid
from events.models import Competition, Game, Seat
from tests.support.blokus import hands_for, register, set_up
from tests.support.factories import CompetitionFactory, EntryFactory, SeatFactory
from tests.support.seat_checks import accepted, check_off, migration, refused_everywhere, stored

CHECK = migration("blokus", "0004_seat_checks")


def _points_any_game_gives() -> set[Fraction]:
    """Every player's points over every four-player game: all rankings, all drop-outs."""
    found: set[Fraction] = set()
    n = rules.PLAYERS_PER_GAME
    for scores in itertools.product(range(n), repeat=n):
        for dropped in itertools.product([False, True], repeat=n):
            found.update(rules.qualifying_points_with_dropouts(list(scores), list(dropped)))
    return found


POINTS = _points_any_game_gives()
ALL_PLACED = {
    rules.game_score(0, last, official_bonus=official)
    for last in (False, True)
    for official in (False, True)
}


def legal(position: int, colour: str, score: int | None, points: Decimal | None) -> bool:
    """What the rules allow one seat to state (either scoring: the competition chooses)."""
    return (
        1 <= position <= rules.PLAYERS_PER_GAME
        and colour in rules.COLOURS
        and (
            score is None
            or rules.is_game_score(score)
            or rules.is_game_score(score, official_bonus=True)
        )
        and (points is None or Fraction(points) in POINTS)
    )


@pytest.fixture
def seat(db) -> Seat:
    return SeatFactory(score=-5, points=Decimal("1.5"))


def test_the_inlined_values_are_the_rules():
    assert CHECK.COLOURS == rules.COLOURS
    assert CHECK.PLAYERS_PER_GAME == rules.PLAYERS_PER_GAME
    assert CHECK.TOTAL_SQUARES == rules.TOTAL_SQUARES
    assert set(CHECK.ALL_PLACED_SCORES) == ALL_PLACED
    assert {Fraction(h, 2) for h in CHECK.HALF_POINTS} == POINTS


def test_every_score_is_accepted_exactly_when_the_rules_allow_it(seat):
    for score in range(-rules.TOTAL_SQUARES - 30, 40):
        written = accepted(lambda s=score: Seat.objects.filter(pk=seat.pk).update(score=s))
        assert written == legal(1, "blue", score, None), score


def test_every_points_value_is_accepted_exactly_when_a_game_can_give_it(seat):
    for quarters in range(-4, 4 * rules.PLAYERS_PER_GAME + 2):
        points = Decimal(quarters) / 4
        written = accepted(lambda p=points: Seat.objects.filter(pk=seat.pk).update(points=p))
        assert written == legal(1, "blue", None, points), points


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    position=st.integers(0, 6),
    colour=st.sampled_from([*rules.COLOURS, "", "purple", "Blue", "white", " red"]),
    score=st.none() | st.integers(-200, 200),
    points=st.none()
    | st.decimals(min_value=-5, max_value=9999, places=2, allow_nan=False, allow_infinity=False),
)
def test_the_database_agrees_with_the_rules(seat, position, colour, score, points):
    values = {"position": position, "colour": colour, "score": score, "points": points}
    before = stored(seat)
    written = accepted(lambda: Seat.objects.filter(pk=seat.pk).update(**values))
    assert written == legal(position, colour, score, points)
    if not written:
        assert stored(seat) == before


@pytest.mark.parametrize(
    "values",
    [
        {"colour": "purple"},
        {"colour": ""},
        {"colour": "white"},
        {"position": 5},
        {"score": 7},
        {"score": -90},
        {"score": 148},
        {"points": Decimal("3.5")},
        {"points": Decimal("0.25")},
        {"points": Decimal("6")},
    ],
)
def test_an_impossible_value_is_refused_by_every_path(seat, values):
    refused_everywhere(seat, **values)


def test_bulk_create_stores_nothing_when_one_seat_is_impossible(seat):
    others = EntryFactory.create_batch(2, competition=seat.entry.competition)
    count = Seat.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.bulk_create(
            [
                Seat(game=seat.game, entry=others[0], position=2, colour="yellow", score=-3),
                Seat(game=seat.game, entry=others[1], position=3, colour="red", score=99),
            ]
        )
    assert Seat.objects.count() == count
    Seat.objects.bulk_create(
        [Seat(game=seat.game, entry=others[0], position=2, colour="yellow", score=20)]
    )
    assert Seat.objects.count() == count + 1


def test_a_round_robin_game_cannot_be_moved_into_a_blokus_competition(seat):
    other = SeatFactory(game__round__session__competition__format="roundrobin")
    game, blokus_round = other.game, seat.game.round
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(round=blokus_round)
    with pytest.raises(IntegrityError), transaction.atomic():
        type(game.round).objects.filter(pk=game.round_id).update(session=blokus_round.session)
    with pytest.raises(IntegrityError), transaction.atomic():
        Competition.objects.filter(pk=other.entry.competition_id).update(format="blokus")
    assert Game.objects.get(pk=game.pk).round_id == other.game.round_id
    # A Blokus game moves between Blokus competitions; a competition without seats changes.
    assert Game.objects.filter(pk=seat.game_id).update(round=SeatFactory().game.round) == 1
    empty = CompetitionFactory(format="roundrobin")
    assert Competition.objects.filter(pk=empty.pk).update(format="blokus") == 1


def test_a_whole_tournament_through_the_services_is_accepted(competition):
    sessions = set_up(competition)
    register(competition, sessions[0], 8)
    services.session_seat(session=sessions[0])
    rng = random.Random(4)
    round_ = services.round_draw(session=sessions[0], seed=5)
    for game in round_.games.all():
        services.game_result_record(game=game, revision=0, hands=hands_for(game, rng))
    seats = Seat.objects.filter(game__round=round_)
    assert seats.count() == 8 and not seats.filter(points__isnull=True).exists()


def test_a_seat_an_old_backup_left_impossible_is_refused_in_words(competition):
    sessions = set_up(competition)
    register(competition, sessions[0], 4)
    services.session_seat(session=sessions[0])
    round_ = services.round_draw(session=sessions[0], seed=5)
    game = round_.games.get()
    broken = game.seats.get(position=4)
    with check_off("blokus"):
        Seat.objects.filter(pk=broken.pk).update(position=7)
    hands = [services.HandInput(s.pk, 3) for s in game.seats.all()]
    with pytest.raises(Invalid) as refused:
        services.game_result_record(game=game, revision=0, hands=hands)
    assert refused.value.code == "seat_check"
    assert "positions 1 to 4" in refused.value.text
    assert not Seat.objects.filter(game=game, score__isnull=False).exists()


def test_admin_says_in_words_why_a_seat_is_refused(admin_client, seat):
    count = Seat.objects.count()
    other = EntryFactory(competition=seat.entry.competition)
    response = admin_client.post(
        reverse("admin:events_seat_add"),
        {"game": seat.game_id, "entry": other.pk, "position": 7, "colour": "green"},
        follow=True,
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "positions 1 to 4" in page
    assert "seat_check" not in page and "[seat check]" not in page
    assert Seat.objects.count() == count
