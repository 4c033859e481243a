"""Blokus's public data for the read API (``blokus.read_api``): standings, every seat, the
sessions, one session and the rating, by public name."""

from __future__ import annotations

from blokus import read_api
from events.models import Player
from events.series.models import Series
from tests.support.blokus import played, record, seated_round, small
from tests.support.factories import HostClubFactory


def test_standings_and_results_name_people_by_their_public_name(event):
    competition = small(event)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    first = game.seats.get(position=1).entry
    Player.objects.filter(pk=first.player_id).update(name="Åsa Öberg", name_shown="short")
    record(game, [0, 1, 2, 3])
    standings = read_api.standings(competition)
    assert [row["place"] for row in standings] == [1, 2, 3, 4]
    top = standings[0]
    assert (top["entry"], top["name"], top["qualifying_points"], top["total_score"]) == (
        first.pk,
        "Åsa Ö.",
        3,
        5,
    )
    results = read_api.results(competition)
    assert [(r["seat"], r["score"], r["squares_left"]) for r in results] == [
        (1, 5, 0),
        (2, -1, 1),
        (3, -2, 2),
        (4, -3, 3),
    ]
    assert results[0]["monomino_last"] is True and results[0]["name"] == "Åsa Ö."


def test_a_session_has_its_players_rounds_tables_and_standings(event):
    competition = small(event)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    record(game, [0, 1, 2, 3])
    (summary,) = read_api.sessions(competition)
    assert (summary["number"], summary["seated"], summary["rounds"], summary["held"]) == (
        1,
        4,
        1,
        True,
    )
    session = read_api.session(competition, 1)
    assert len(session["players"]) == 4 and all(p["role"] == "seated" for p in session["players"])
    (round_,) = session["rounds"]
    assert round_["finished"] and [s["score"] for s in round_["tables"][0]["seats"]] == [
        5,
        -1,
        -2,
        -3,
    ]
    assert session["standings"][0]["place"] == 1
    assert read_api.session(competition, 7) is None


def test_the_rating_is_for_blokus_series_only(event):
    played(event, players=4, rounds=1)
    everyone = read_api.ratings()
    assert len(everyone) == 4 and everyone[0]["place"] == 1
    assert all(set(r) >= {"player", "name", "rating", "mu", "sigma", "games"} for r in everyone)
    sjoelen = Series.objects.create(
        name="Sjoelen", slug="sj", format="shuffleboard", host=HostClubFactory()
    )
    assert read_api.ratings(sjoelen) is None
