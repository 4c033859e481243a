"""The Blokus charts on a player's page and a session's page: the figures read back from
each SVG equal the table beside it and the database; an admin correction changes them (and
the ETag); the query count does not grow with the games; nothing drawn before a result."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from django.urls import reverse

from blokus import services
from blokus.models import Hand
from blokus.templatetags.blokus_tags import COLOUR_NAMES
from events.common.localising import number
from events.models import Entry, Seat
from tests.support.blokus import admin_client, play_round, seated_round, small, url
from tests.support.charts import chart_svg, chart_table, svg_points

pytestmark = pytest.mark.django_db


def html_at(client, address: str) -> str:
    response = client.get(address)
    assert response.status_code == 200
    return response.content.decode()


def places(game) -> dict[int, int]:
    scores = dict(game.seats.values_list("entry_id", "score"))
    return {pk: 1 + sum(s > score for s in scores.values()) for pk, score in scores.items()}


def test_the_session_charts_match_their_tables_and_the_database(client, eight_played):
    competition, session, a, b = eight_played
    html = html_at(client, url("session", competition, session.number))
    bars = svg_points(chart_svg(html, "colours"))
    _, rows = chart_table(html, "colours")
    seats = list(Seat.objects.filter(game__round__session=session).select_related("game"))
    placed = {}
    for game in {seat.game for seat in seats}:
        placed.update(places(game))
    expected = []
    for colour in ("blue", "yellow", "red", "green"):
        mine = [placed[s.entry_id] for s in seats if s.colour == colour]
        if mine:
            expected.append((str(COLOUR_NAMES[colour]), Fraction(sum(mine), len(mine))))
    assert [(p.x, p.y) for p in bars] == [(name, round(float(v), 2)) for name, v in expected]
    assert [(row[0], row[2]) for row in rows] == [
        (name, number(round(float(v), 2), 2)) for name, v in expected
    ]
    lines = svg_points(chart_svg(html, "squares"))
    headings, table = chart_table(html, "squares")
    assert headings[1:] == [p.series for p in lines]  # one line per colour, one round
    hands = Hand.objects.filter(seat__game__round__session=session).select_related("seat")
    for point in lines:
        colour = next(c for c, name in COLOUR_NAMES.items() if str(name) == point.series)
        left = [h.squares_left for h in hands if h.seat.colour == colour]
        assert point.y == round(sum(left) / len(left), 2)
    assert table[0][1:] == [number(Fraction(p.y).limit_denominator(100), 1) for p in lines]


def test_the_player_charts_match_the_table_and_follow_an_admin_correction(client, eight_played):
    competition, session, a, b = eight_played
    winner = Entry.objects.get(pk=a[0])
    address = url("player", competition, winner.pk)
    before = client.get(address)
    html = before.content.decode()
    [bar] = svg_points(chart_svg(html, "colours"))
    colour = Seat.objects.get(entry=winner).colour
    assert (bar.x, bar.y) == (str(COLOUR_NAMES[colour]), 1.0)
    assert chart_table(html, "colours")[1] == [[str(COLOUR_NAMES[colour]), "1", "1.00", "0.0"]]
    [line] = svg_points(chart_svg(html, "squares"))
    assert (line.x, line.y) == ("0", 0.0)
    assert chart_table(html, "squares")[1] == [["S1 R1", "0"]]

    hand = Hand.objects.get(seat__entry=winner)
    admin = admin_client(client)
    assert (
        admin.post(
            reverse("admin:blokus_hand_change", args=[hand.pk]), {"squares_left": 7, "pieces": "[]"}
        ).status_code
        == 302
    )
    admin.logout()
    client.cookies.clear()
    after = client.get(address, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    html = after.content.decode()
    [line] = svg_points(chart_svg(html, "squares"))
    assert line.y == 7.0
    game = Seat.objects.get(entry=winner).game
    [bar] = svg_points(chart_svg(html, "colours"))
    assert bar.y == places(game)[winner.pk] == 4


def test_no_chart_before_a_finished_game(client, event):
    competition = small(event)
    session = competition.sessions.get()
    seated_round(competition, session, 4)
    html = html_at(client, url("session", competition, session.number))
    assert 'id="blokus-charts"' not in html
    entry = Seat.objects.filter(game__round__session=session).first().entry
    assert 'id="blokus-charts"' not in html_at(client, url("player", competition, entry.pk))


@pytest.mark.parametrize("rounds", [1, 4])
def test_the_pages_keep_their_query_count(client, event, rounds, django_assert_max_num_queries):
    competition = small(event, rounds=rounds)
    session = competition.sessions.get()
    seated_round(competition, session, 12)
    rng = random.Random(5)
    play_round(session.rounds.get(number=1), rng)
    for number_ in range(2, rounds + 1):
        play_round(services.round_draw(session=session, seed=number_), rng)
    entry = Seat.objects.filter(game__round__session=session).first().entry
    # each page's own reads, its two charts' (seats, drop-outs) and, first, the event's language
    with django_assert_max_num_queries(12):
        html = html_at(client, url("session", competition, session.number))
    assert len(svg_points(chart_svg(html, "squares"))) >= rounds
    with django_assert_max_num_queries(12):
        html = html_at(client, url("player", competition, entry.pk))
    assert len(svg_points(chart_svg(html, "squares"))) == rounds
