"""The Blokus rating drawn: on the rating list's drill-down (the whole history) and on the
player's page of a competition (its games), the SVG's points equal the table beside them and
the stored steps; the chart follows an admin correction (a new ETag, the new value drawn);
the same number of queries for 5 or 50 rated games."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from blokus import rules, services
from blokus.models import Hand, RatingStep
from events.charts.chart import localised
from events.models import Entry, Game
from tests.support.blokus import admin_client, play_session, seat_players, small, url
from tests.support.charts import chart_svg, chart_table, svg_points
from tests.support.factories import EntryFactory, PlayerFactory


def rated_competition(event, rounds: int, slug: str = "rated", players=None):
    """Eight players (new ones, or ``players`` again), one session of ``rounds`` rounds (10 at
    most), all played."""
    competition = small(event, rounds=rounds, slug=slug)
    session = competition.sessions.get()
    if players is None:
        seat_players(competition, session, 8, prefix=slug)
    else:
        for player in players:
            entry = EntryFactory(competition=competition, player=player)
            services.session_check_in(
                session_player=services.session_register(session=session, entry=entry)
            )
        services.session_seat(session=session)
    play_session(session, random.Random(rounds), rounds=rounds)
    return competition


@pytest.fixture
def five(event):
    return rated_competition(event, 5)


def one(value: float) -> str:
    return localised(round(value, 1), 1)


def expected_rows(steps: list[RatingStep]) -> list[tuple[str, str, str]]:
    first = steps[0]
    states = [(first.mu_before, first.sigma_before)] + [(s.mu_after, s.sigma_after) for s in steps]
    return [(one(rules.conservative(m, s)), one(m), one(s)) for m, s in states]


def test_the_drill_down_draws_the_table_and_the_stored_steps(five):
    entry = Entry.objects.filter(competition=five).first()
    html = Client().get(reverse("blokus:rating_player", args=[entry.player_id])).content.decode()
    steps = list(RatingStep.objects.filter(player_id=entry.player_id).order_by("order_key"))
    assert len(steps) == 5
    headings, rows = chart_table(html, "rating")
    assert headings[0] == "Game" and len(rows) == 6
    assert rows[0][0] == "Start"
    assert [tuple(r[1:]) for r in rows] == expected_rows(steps)
    points = svg_points(chart_svg(html, "rating"))
    rating = [p for p in points if p.series == "Rating (μ − 3σ)"]
    skill = [p for p in points if p.series == "Skill (μ) ± 3σ"]
    assert [p.x for p in rating] == [str(i) for i in range(6)]
    assert [one(p.y) for p in rating] == [r[1] for r in rows]
    assert [one(p.y) for p in skill] == [r[2] for r in rows]
    assert rating[-1].y == pytest.approx(steps[-1].conservative_after)
    assert 'role="img" aria-labelledby="chart-rating-title chart-rating-desc"' in html
    assert 'id="chart-rating-desc"' in html


def test_the_player_page_draws_this_competitions_games(five, event):
    again = [e.player for e in Entry.objects.filter(competition=five).select_related("player")]
    later = rated_competition(event, 2, slug="later", players=again)
    entry = Entry.objects.filter(competition=later).first()
    html = Client().get(url("player", later, entry.pk)).content.decode()
    headings, rows = chart_table(html, "rating")
    steps = list(
        RatingStep.objects.filter(
            player_id=entry.player_id, game__round__session__competition=later
        ).order_by("order_key")
    )
    assert len(rows) == len(steps) + 1 == 3
    assert [tuple(r[1:]) for r in rows] == expected_rows(steps)
    points = svg_points(chart_svg(html, "rating"))
    assert [one(p.y) for p in points if p.series == "Rating (μ − 3σ)"] == [r[1] for r in rows]
    assert reverse("blokus:rating_player", args=[entry.player_id]) in html


def test_no_chart_before_the_first_rated_game(event):
    competition = small(event)
    session = competition.sessions.get()
    [sp, *_] = seat_players(competition, session, 4)
    html = Client().get(url("player", competition, sp.entry_id)).content.decode()
    assert "chart-rating" not in html


def test_the_chart_follows_an_admin_correction(client, five):
    game = Game.objects.filter(round__session__competition=five).order_by("round__number").first()
    hand = Hand.objects.filter(seat__game=game).order_by("seat__position").first()
    entry = hand.seat.entry
    visitor = Client()
    address = url("player", five, entry.pk)
    first = visitor.get(address)
    etag = first["ETag"]
    before = svg_points(chart_svg(first.content.decode(), "rating"))
    assert visitor.get(address, headers={"If-None-Match": etag}).status_code == 304
    admin = admin_client(client)
    squares = 0 if hand.squares_left else 40
    data = {"squares_left": squares, "pieces": "[]", "revision": game.revision, "confirm": "on"}
    saved = admin.post(reverse("admin:blokus_hand_change", args=[hand.pk]), data)
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    again = visitor.get(address, headers={"If-None-Match": etag})
    assert again.status_code == 200 and again["ETag"] != etag
    html = again.content.decode()
    after = svg_points(chart_svg(html, "rating"))
    assert after != before
    step = RatingStep.objects.get(player_id=entry.player_id, game=game)
    first_game = [p for p in after if p.series == "Rating (μ − 3σ)"][1]
    assert first_game.y == pytest.approx(step.conservative_after)
    _, rows = chart_table(html, "rating")
    assert rows[1][1] == one(step.conservative_after)


def count_queries(path: str) -> int:
    client = Client()
    client.get(path)  # warm what is not the page's own (templates, translations)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries.captured_queries)


@pytest.mark.slow
def test_the_same_queries_for_5_or_50_rated_games(event, five):
    players = [PlayerFactory(name=f"Fifty {n}") for n in range(8)]
    for n in range(5):  # ten rounds a session at most: five competitions of ten
        fifty = rated_competition(event, 10, slug=f"fifty{n}", players=players)
    counts = []
    for competition, games in ((five, 5), (fifty, 50)):
        entry = Entry.objects.filter(competition=competition).first()
        assert RatingStep.objects.filter(player_id=entry.player_id).count() == games
        counts.append(
            (
                count_queries(reverse("blokus:rating_player", args=[entry.player_id])),
                count_queries(url("player", competition, entry.pk)),
            )
        )
    assert counts[0] == counts[1]
