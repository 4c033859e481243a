"""Sjoelen's public data for the read API (``shuffleboard.read_api``): the standings as the
public page ranks them and every game with its gate counts, by public name; no sessions and no
rating."""

from __future__ import annotations

from events.models import Player
from shuffleboard import read_api


def test_the_standings_rank_with_shared_places_and_public_names(played):
    a, b, c, d = played
    Player.objects.filter(pk=a.player_id).update(name_shown="short")
    rows = read_api.standings(a.competition)
    by_entry = {row["entry"]: row for row in rows}
    assert by_entry[a.pk]["place"] == by_entry[b.pk]["place"] == 1
    assert by_entry[a.pk]["shared"] and by_entry[a.pk]["total"] == 264
    assert by_entry[a.pk]["games"] == 2 and by_entry[a.pk]["best"] == 148
    assert by_entry[a.pk]["average"] == 132.0
    assert by_entry[a.pk]["name"] == "Õie S."
    assert by_entry[c.pk]["place"] == 3 and by_entry[c.pk]["total"] == 20


def test_every_game_carries_its_board_and_counts(played):
    a = played[0]
    results = [r for r in read_api.results(a.competition) if r["entry"] == a.pk]
    assert [(r["game"], r["board"], r["counts"], r["score"]) for r in results] == [
        (1, 1, [5, 9, 5, 7], 116),
        (2, 2, [7, 7, 7, 9], 148),
    ]


def test_sjoelen_has_no_sessions_and_no_rating(sjoelen):
    assert read_api.sessions(sjoelen) == []
    assert read_api.session(sjoelen, 1) is None
    assert read_api.ratings is None
