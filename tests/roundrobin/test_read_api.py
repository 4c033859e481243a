"""Tests of roundrobin/read_api.py: the round robin's public data for the read API, each
table's standings, games and sessions, people by the name they chose for the public."""

from __future__ import annotations

import json

from roundrobin import read_api
from roundrobin.models import PlayerToken
from tests.support.roundrobin import FULL, SHORT, asa_table, play


def test_the_standings_list_every_table_row_best_first(event):
    competition, (asa, b, c) = asa_table(event, "api")
    play(competition, asa, b)
    play(competition, b, c, draw=True)
    rows = read_api.standings(competition)
    assert [(row["table"], row["place"], row["points"], row["games"]) for row in rows] == [
        (1, 1, 1, 1),
        (1, 2, 0.5, 2),
        (1, 2, 0.5, 1),
    ]
    assert all(row["withdrawn"] is False and row["rating_at_start"] for row in rows)


def test_every_game_is_listed_with_its_result_from_whites_side(event):
    competition, (asa, b, c) = asa_table(event, "games")
    play(competition, asa, b)
    games = read_api.results(competition)
    assert len(games) == 3 and {game["stage"] for game in games} == {"regular"}
    (done,) = [game for game in games if game["result"]]
    assert done["result"] in ("1-0", "0-1") and done["state"] == "Played"
    assert done["rated"] is True and done["ended_at"]
    winner = done["white"] if done["result"] == "1-0" else done["black"]
    assert SHORT in json.dumps(winner, ensure_ascii=False)
    open_games = [game for game in games if not game["result"]]
    assert all(
        game["white_points"] is None and game["state"] == "in progress" for game in open_games
    )


def test_a_tiebreak_game_is_named_by_its_stage(event):
    competition, (asa, b, c) = asa_table(event, "ties")
    play(competition, asa, b)
    play(competition, b, c)
    play(competition, c, asa)
    stages = {game["stage"] for game in read_api.results(competition)}
    assert stages == {"regular", "mini_round_robin 1"}


def test_the_tables_are_the_sessions(event):
    competition, (asa, b, c) = asa_table(event, "sessions")
    play(competition, asa, b)
    assert read_api.sessions(competition) == [
        {"number": 1, "kind": "table", "players": 3, "games": 3, "finished": 1, "detail": True}
    ]
    one = read_api.session(competition, 1)
    assert one["number"] == 1 and len(one["standings"]) == 3 and len(one["games"]) == 3
    assert read_api.session(competition, 2) is None


def test_nothing_shows_the_full_name_or_a_private_link(event):
    competition, (asa, b, c) = asa_table(event, "private")
    play(competition, asa, b)
    everything = json.dumps(
        [
            read_api.standings(competition),
            read_api.results(competition),
            read_api.session(competition, 1),
        ],
        ensure_ascii=False,
        default=str,
    )
    assert SHORT in everything and FULL not in everything
    tokens = list(PlayerToken.objects.values_list("token", flat=True))
    assert tokens and not any(token in everything for token in tokens)
    assert read_api.ratings is None
