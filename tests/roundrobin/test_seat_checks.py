"""The database's check of what a round-robin seat may state
(roundrobin/migrations/0005_seat_checks.py): exactly what the rules allow, whatever path
writes it."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from events.errors import Invalid
from events.models import Competition, Game, Seat
from roundrobin import services
from roundrobin.models import GameDetail
from roundrobin.rules import values as rule_values
from tests.support.factories import CompetitionFactory, EntryFactory, SeatFactory
from tests.support.roundrobin import game_between, play
from tests.support.seat_checks import accepted, check_off, migration, refused_everywhere, stored

CHECK = migration("roundrobin", "0005_seat_checks")
POINTS = {points for result in rule_values.VALID_RESULTS for points in result}
HTMX = {"HX-Request": "true"}


def legal(position: int, colour: str, score: int | None, points: Decimal | None) -> bool:
    """What the rules allow one seat to state: White first, Black second, no score, points of
    a result (1, ½, 0; 0 for both in a double forfeit)."""
    return (
        1 <= position <= len(rule_values.COLOURS)
        and colour == rule_values.COLOURS[position - 1]
        and score is None
        and (points is None or Fraction(points) in POINTS)
    )


@pytest.fixture
def seat(db) -> Seat:
    return SeatFactory(game__round__session__competition__format="roundrobin")


def test_the_inlined_values_are_the_rules():
    assert CHECK.COLOURS == rule_values.COLOURS
    assert {Fraction(Decimal(p)) for p in CHECK.POINTS} == POINTS
    assert POINTS == {rule_values.WIN, rule_values.DRAW, rule_values.LOSS}


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    position=st.integers(0, 3),
    colour=st.sampled_from([*rule_values.COLOURS, "", "purple", "White", "blue"]),
    score=st.none() | st.integers(-3, 3),
    points=st.none()
    | st.decimals(min_value=-2, max_value=9999, places=2, allow_nan=False, allow_infinity=False)
    | st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)]),
)
def test_the_database_agrees_with_the_rules(seat, position, colour, score, points):
    values = {"position": position, "colour": colour, "score": score, "points": points}
    before = stored(seat)
    written = accepted(lambda: Seat.objects.filter(pk=seat.pk).update(**values))
    assert written == legal(position, colour, score, points)
    if not written:
        assert stored(seat) == before


def test_every_legal_seat_is_accepted(seat):
    for position, colour in enumerate(rule_values.COLOURS, start=1):
        for points in [None, *(Decimal(p.numerator) / p.denominator for p in sorted(POINTS))]:
            values = {"position": position, "colour": colour, "points": points}
            assert accepted(lambda v=values: Seat.objects.filter(pk=seat.pk).update(**v)), values


@pytest.mark.parametrize(
    "values",
    [
        {"colour": "purple"},
        {"colour": "black"},  # the first seat plays White
        {"colour": ""},
        {"position": 3},
        {"score": 1},
        {"points": Decimal(2)},
        {"points": Decimal("1.5")},
        {"points": Decimal("0.25")},
    ],
)
def test_an_impossible_value_is_refused_by_every_path(seat, values):
    refused_everywhere(seat, **values)


def test_bulk_create_stores_nothing_when_one_seat_is_impossible(seat):
    game = Game.objects.create(round=seat.game.round, number=seat.game.number + 1)
    entries = EntryFactory.create_batch(2, competition=seat.entry.competition)
    count = Seat.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.bulk_create(
            [
                Seat(game=game, entry=entries[0], position=1, colour="white"),
                Seat(game=game, entry=entries[1], position=2, colour="white"),
            ]
        )
    assert Seat.objects.count() == count
    Seat.objects.bulk_create(
        [
            Seat(game=game, entry=entries[0], position=1, colour="white"),
            Seat(game=game, entry=entries[1], position=2, colour="black"),
        ]
    )
    assert Seat.objects.count() == count + 2


def test_a_blokus_game_cannot_be_moved_into_a_round_robin(seat):
    blokus = SeatFactory(score=-3)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=blokus.game_id).update(round=seat.game.round)
    with pytest.raises(IntegrityError), transaction.atomic():
        Competition.objects.filter(pk=blokus.entry.competition_id).update(format="roundrobin")
    assert Competition.objects.get(pk=blokus.entry.competition_id).format == "blokus"
    empty = CompetitionFactory(format="blokus")
    assert Competition.objects.filter(pk=empty.pk).update(format="roundrobin") == 1


def test_results_through_the_services_are_accepted(started, sixteen):
    # Forfeits, time losses, withdrawals and tiebreaks: the round robin's own suite, run with
    # these checks in place.
    play(started, sixteen[0], sixteen[1])
    play(started, sixteen[2], sixteen[3], draw=True)
    finished = Seat.objects.filter(game__round__session__competition=started).exclude(
        points__isnull=True
    )
    assert sorted(finished.values_list("points", flat=True)) == [
        0,
        Decimal("0.5"),
        Decimal("0.5"),
        1,
    ]


def test_a_seat_an_old_backup_left_impossible_is_refused_in_words(desk_client, started, sixteen):
    game = game_between(sixteen[0], sixteen[1])
    with check_off("roundrobin"):
        Seat.objects.filter(game=game, position=1).update(colour="purple")
    with pytest.raises(Invalid) as refused:
        services.game_result_record(
            competition=started, game_id=game.pk, result="1-0", revision=game.revision
        )
    assert refused.value.code == "seat_check"
    response = desk_client.post(
        reverse("roundrobin:game_result", args=[started.event.slug, started.slug, game.pk]),
        {"result": "1-0", "revision": game.revision},
        headers=HTMX,
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "first of its game (White)" in page and "seat check" not in page
    assert not Seat.objects.filter(game=game, points__isnull=False).exists()
    assert GameDetail.objects.get(game=game).ending == ""
