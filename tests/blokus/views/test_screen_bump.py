"""The Blokus projector's bump chart: a page of the screen's cycle once two rounds of the
current qualifying session have results, its points the places by accumulated qualifying points
then total score, equal to the table beside it."""

from __future__ import annotations

import random
from collections import defaultdict

from django.test import Client

from blokus import services
from blokus.views.screen_bump import session_bump
from events.models import Seat
from tests.support.blokus import play_round, seat_players, small
from tests.support.charts import chart_svg, chart_table, svg_points
from tests.support.screens import screen_url


def expected_places(session, rounds: int) -> dict[str, list[int]]:
    """The places after each round, computed here from the stored seats."""
    totals: dict[str, list[tuple[float, int]]] = defaultdict(list)
    running: dict[str, tuple[float, int]] = defaultdict(lambda: (0.0, 0))
    seats = Seat.objects.filter(game__round__session=session).select_related(
        "entry__player", "game__round"
    )
    for number in range(1, rounds + 1):
        for seat in seats:
            if seat.game.round.number == number:
                name = seat.entry.player.public_name
                points, score = running[name]
                running[name] = (points + float(seat.points), score + seat.score)
        for name, key in running.items():
            totals[name].append(key)
    places: dict[str, list[int]] = {}
    for name, keys in totals.items():
        places[name] = [
            1 + sum(other[k] > keys[k] for other in totals.values()) for k in range(rounds)
        ]
    return places


def test_two_played_rounds_make_a_bump_page_whose_points_match_the_table(event):
    competition = small(event, rounds=3)
    session = competition.sessions.get()
    seat_players(competition, session, 8)
    rng = random.Random(4)
    screen = screen_url(competition)
    for number in (1, 2):
        play_round(services.round_draw(session=session, seed=number), rng)
        if number == 1:
            assert 'data-page="2"' not in Client().get(screen).content.decode()
    services.round_draw(session=session, seed=3)  # the next round seated: the screen's round
    html = Client().get(screen).content.decode()
    assert 'class="screen-page screen-chart" data-page="2" hidden' in html
    svg = chart_svg(html, "bump")
    assert 'class="chart chart-bump"' in svg
    headings, rows = chart_table(html, "bump")
    assert headings == ["Player", "Round 1", "Round 2"]
    expected = expected_places(session, 2)
    assert {row[0]: [int(p) for p in row[1:]] for row in rows} == expected
    drawn: dict[str, list[int]] = defaultdict(list)
    for point in svg_points(svg):
        drawn[point.series].append(int(point.y))
    assert drawn == expected
    assert [row[0] for row in rows] == sorted(expected, key=lambda n: (expected[n][-1], n))


def test_no_chart_before_two_rounds_have_results(event):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    seat_players(competition, session, 4)
    assert session_bump(session) is None
    play_round(services.round_draw(session=session, seed=1), random.Random(1))
    assert session_bump(session) is None


def test_the_chart_takes_one_query(event, django_assert_num_queries):
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    seat_players(competition, session, 12)
    for number in (1, 2):
        play_round(services.round_draw(session=session, seed=number), random.Random(number))
    with django_assert_num_queries(1):
        chart = session_bump(session)
    assert chart is not None and len(chart.rows) == 12
