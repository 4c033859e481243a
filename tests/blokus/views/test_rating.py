"""The Blokus rating's public pages: the list (all players, or a series' players),
a player's history and the CSV/XLSX download, through real requests as an anonymous visitor;
public names only, 404s for what does not exist, nothing a query string holds makes a 500,
and the same number of queries for 4 or 12 players."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from blokus import services
from blokus.models import RatingStep
from events.models import Game, Player
from events.series.models import Series, SeriesCompetition
from tests.support.blokus import play_round, seat_players, small
from tests.support.factories import CompetitionFactory, EntryFactory, HostClubFactory, PlayerFactory

LIST = reverse("blokus:rating_list")
FULL, SHORT = "Åsa Öberg", "Åsa Ö."


def played(event, players: int, slug: str = "small", seed: int = 3) -> list[Player]:
    """A session of ``players`` with one round played; returns the players."""
    import random

    competition = small(event, slug=slug)
    session = competition.sessions.get()
    seat_players(competition, session, players, prefix=slug)
    rng = random.Random(seed)
    play_round(services.round_draw(session=session, seed=seed), rng)
    return list(Player.objects.filter(entries__competition=competition))


@pytest.fixture
def rated(event):
    """Eight players with a rated round; one of them, "Åsa Öberg", shows as "Åsa Ö."."""
    players = played(event, 8)
    asa = players[0]
    Player.objects.filter(pk=asa.pk).update(name=FULL, name_shown="short")
    return players


def page(path: str, **params) -> tuple[int, str]:
    response = Client().get(path, params)
    return response.status_code, response.content.decode() if response.status_code == 200 else ""


def test_the_list_shows_everyone_rated_by_public_name_best_first(rated):
    status, html = page(LIST)
    assert status == 200
    assert SHORT in html and FULL not in html
    assert html.count(reverse("blokus:rating_player", args=[rated[1].pk])) == 1
    values = list(RatingStep.objects.values_list("player_id", flat=True).distinct())
    assert len(values) == 8
    assert "μ − 3σ" in html


def test_a_player_page_shows_each_game_before_and_after(rated):
    asa = rated[0]
    status, html = page(reverse("blokus:rating_player", args=[asa.pk]))
    assert status == 200
    assert SHORT in html and FULL not in html
    step = RatingStep.objects.select_related("game__round__session__competition__event").get(
        player=asa
    )
    assert step.game.round.session.competition.event.name in html
    assert f"{step.conservative_after:.1f}" in html


def test_unknown_and_unrated_players_are_404(rated, competition):
    never = EntryFactory(competition=competition, player=PlayerFactory(name="Not Rated")).player
    for player_id in (never.pk, 999999, 0, 10**30):
        assert page(reverse("blokus:rating_player", args=[player_id]))[0] == 404


def test_the_series_filter_keeps_the_series_players(event, rated):
    other_event_players = played(
        CompetitionFactory(slug="x").event, 4, slug="elsewhere", seed=4
    )  # another competition, not in the series
    competition = Game.objects.filter(seats__entry__player=rated[0]).get().round.session.competition
    series = Series.objects.create(
        name="Swedish Cup", slug="swedish-cup", format="blokus", host=HostClubFactory()
    )
    SeriesCompetition.objects.create(series=series, competition=competition)
    status, html = page(LIST, series="swedish-cup")
    assert status == 200
    assert "Swedish Cup" in html
    for player in rated:
        assert reverse("blokus:rating_player", args=[player.pk]) in html
    for player in other_event_players:
        assert reverse("blokus:rating_player", args=[player.pk]) not in html
    everyone = page(LIST)[1]
    assert all(
        reverse("blokus:rating_player", args=[p.pk]) in everyone for p in other_event_players
    )


def test_an_unknown_series_or_one_of_another_format_is_404(rated):
    Series.objects.create(
        name="Sjoelen", slug="sjoelen-cup", format="shuffleboard", host=HostClubFactory()
    )
    assert page(LIST, series="no-such-series")[0] == 404
    assert page(LIST, series="sjoelen-cup")[0] == 404
    assert page(reverse("blokus:rating_download", args=["csv"]), series="sjoelen-cup")[0] == 404


@pytest.mark.parametrize(
    "query",
    [
        "series=%00",
        "series=' OR 1=1 --",
        "series=" + "a" * 5000,
        "series=%F0%9F%98%80",
        "series=%ff%fe",
        "series[]=x",
        "series=a&series=b",
        "series=..%2F..%2Fetc",
        "series=<script>alert(1)</script>",
        "%00=%00",
    ],
)
def test_hostile_query_strings_never_fail(rated, query):
    for path in (LIST, reverse("blokus:rating_download", args=["csv"])):
        response = Client().get(f"{path}?{query}")
        assert response.status_code in (200, 400, 404), (path, query, response.status_code)


def test_the_pages_are_read_only(rated):
    assert Client().post(LIST).status_code == 405
    assert Client().head(LIST).status_code == 200


def test_csv_and_xlsx_give_the_list_with_public_names(rated):
    Player.objects.filter(pk=rated[1].pk).update(name="=HYPERLINK(1)", name_shown="full")
    response = Client().get(reverse("blokus:rating_download", args=["csv"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "blokus-rating.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Player", "Rating", "Mu", "Sigma", "Games"]
    assert len(rows) == 9
    names = [row[1] for row in rows[1:]]
    assert SHORT in names and FULL not in names
    assert "'=HYPERLINK(1)" in names  # a name that would read as a formula stays text
    assert [int(row[0]) for row in rows[1:]] == sorted(int(row[0]) for row in rows[1:])
    response = Client().get(reverse("blokus:rating_download", args=["xlsx"]))
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0] == ("Place", "Player", "Rating", "Mu", "Sigma", "Games")
    assert SHORT in [row[1] for row in values[1:]]
    assert all(isinstance(row[2], int | float) for row in values[1:])  # numeric cells
    assert Client().get(reverse("blokus:rating_download", args=["json"])).status_code == 404


def test_an_empty_rating_list_is_a_page_not_an_error(db):
    status, html = page(LIST)
    assert status == 200
    assert "No rated games yet." in html


def count_queries(path: str) -> int:
    client = Client()
    client.get(path)  # warm caches that are not the page's (templates, translations)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries.captured_queries)


def test_the_same_number_of_queries_for_4_or_12_players(event, django_assert_max_num_queries):
    first = played(event, 4, slug="four")
    series = Series.objects.create(name="Cup", slug="cup", format="blokus", host=HostClubFactory())
    competition = first[0].entries.get().competition
    SeriesCompetition.objects.create(series=series, competition=competition)
    player = reverse("blokus:rating_player", args=[first[0].pk])
    small_counts = [count_queries(LIST), count_queries(f"{LIST}?series=cup"), count_queries(player)]
    more = played(CompetitionFactory(slug="y").event, 12, slug="twelve", seed=5)
    SeriesCompetition.objects.create(series=series, competition=more[0].entries.get().competition)
    player = reverse("blokus:rating_player", args=[more[0].pk])
    large_counts = [count_queries(LIST), count_queries(f"{LIST}?series=cup"), count_queries(player)]
    assert small_counts == large_counts
    with django_assert_max_num_queries(3):
        Client().get(f"{LIST}?series=cup")
