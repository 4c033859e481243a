"""The round robin's Elo drawn on the player's page: the SVG's points equal the table beside
them and the stored rating changes of this competition, the chart follows an admin correction
(a new ETag, the new rating drawn) and the page takes the same queries for 5 or 50 games."""

from __future__ import annotations

import datetime as dt

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import Game, Seat
from roundrobin.models import RatingChange, RatingSnapshot
from tests.support.charts import chart_svg, chart_table, svg_points
from tests.support.factories import UserFactory
from tests.support.roundrobin import START, play, started_with


def player_url(competition, entry) -> str:
    return reverse("roundrobin:player", args=[competition.event.slug, competition.slug, entry.pk])


def test_the_chart_draws_the_snapshot_and_every_change(event):
    competition, entries = started_with(event, "six", 6)
    me = entries[0]
    for other in entries[1:4]:
        play(competition, me, other)
    html = Client().get(player_url(competition, me)).content.decode()
    changes = list(RatingChange.objects.filter(entry=me).order_by("at", "game_id"))
    assert len(changes) == 3
    start = RatingSnapshot.objects.get(entry=me).rating
    expected = [start] + [c.after for c in changes]
    _, rows = chart_table(html, "rating")
    assert [row[-1] for row in rows] == [str(v) for v in expected]
    assert [row[1] for row in rows[1:]] == [str(c.opponent_rating) for c in changes]
    points = svg_points(chart_svg(html, "rating"))
    assert [(p.x, p.y) for p in points] == [(str(i), float(v)) for i, v in enumerate(expected)]


def test_no_chart_before_the_first_rated_game(event):
    competition, entries = started_with(event, "fresh", 3)
    html = Client().get(player_url(competition, entries[0])).content.decode()
    assert "chart-rating" not in html


def test_the_chart_follows_an_admin_correction(client, event):
    competition, entries = started_with(event, "fix", 3)
    winner, loser = entries[0], entries[1]
    game = play(competition, winner, loser)
    visitor = Client()
    address = player_url(competition, winner)
    first = visitor.get(address)
    etag = first["ETag"]
    won = svg_points(chart_svg(first.content.decode(), "rating"))[-1].y
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    for seat in Seat.objects.filter(game=game):  # the result turned round in the seats' admin
        seat.points = 1 - seat.points
        seat.save()
    response = client.post(
        reverse("admin:roundrobin_gamedetail_changelist"),
        {"action": "recompute", "_selected_action": [game.pk]},
    )
    assert response.status_code == 302
    again = visitor.get(address, headers={"If-None-Match": etag})
    assert again.status_code == 200 and again["ETag"] != etag
    lost = svg_points(chart_svg(again.content.decode(), "rating"))[-1].y
    assert lost < won
    assert lost == RatingChange.objects.get(entry=winner, game=game).after


def count_queries(path: str) -> int:
    client = Client()
    client.get(path)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries.captured_queries)


def test_the_same_queries_for_5_or_50_rated_games(event):
    counts = []
    for games in (5, 50):
        competition, entries = started_with(event, f"g{games}", 3)
        me = entries[0]
        game = play(competition, me, entries[1])
        change = RatingChange.objects.get(entry=me, game=game)
        # more rated games than a table holds: stored rows on games of their own
        more = Game.objects.bulk_create(
            Game(round=game.round, number=100 + n) for n in range(games - 1)
        )
        RatingChange.objects.bulk_create(
            RatingChange(
                competition=competition,
                game=extra,
                entry=me,
                player_id=me.player_id,
                opponent_rating=1900,
                score=change.score,
                before=2000 + n,
                after=2001 + n,
                change=1,
                k=20,
                at=START + dt.timedelta(days=n + 1),
            )
            for n, extra in enumerate(more)
        )
        address = player_url(competition, me)
        _, rows = chart_table(Client().get(address).content.decode(), "rating")
        assert len(rows) == games + 1
        counts.append(count_queries(address))
    assert counts[0] == counts[1]
