"""Tests of roundrobin/services/results.py: recording results, and what is refused."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from events.errors import Conflict, Gone, Invalid, NotFound, Refused, Stale
from events.models import Competition, Seat
from roundrobin import rules, services
from roundrobin.models import Ending, GameDetail, RatingChange, ResultReport
from tests.support.roundrobin import (
    HOUR,
    START,
    detail,
    game_between,
    play,
    points,
    private,
    started_duel,
)


def test_it_records_a_result_and_updates_both_ratings(started, sixteen):
    a, b = sixteen[0], sixteen[1]  # 2000 and 1980, K 20
    game = play(started, b, a, at=START + HOUR)
    game.refresh_from_db()
    assert game.status == "finished" and game.revision == 1
    detail = GameDetail.objects.get(game=game)
    assert (detail.ending, detail.rated, detail.ended_at) == ("played_out", True, START + HOUR)
    expected = rules.rating_change(1980, 2000, 1, 20)
    a.player.refresh_from_db()
    b.player.refresh_from_db()
    assert b.player.rating == 1980 + expected and a.player.rating == 2000 - expected
    assert b.player.rated_games == 41
    changes = RatingChange.objects.filter(game=game).order_by("entry__player__name")
    assert [(c.before, c.after, c.k) for c in changes] == [
        (2000, 2000 - expected, 20),
        (1980, 1980 + expected, 20),
    ]
    assert started.version < Competition.objects.get(pk=started.pk).version


def test_it_refuses_a_stale_revision_and_shows_the_current_result(started, sixteen):
    game = game_between(sixteen[0], sixteen[1])
    services.game_result_record(competition=started, game_id=game.pk, result="1-0", revision=0)
    with pytest.raises(Stale) as refused:
        services.game_result_record(competition=started, game_id=game.pk, result="0-1", revision=0)
    assert refused.value.code == "stale_result" and "1-0" in refused.value.text
    assert Seat.objects.get(game=game, position=1).points == Decimal(1)


@pytest.mark.parametrize("result", ["2-0", "", "1-1", "0-0", "1/2", None])
def test_it_refuses_bad_results(started, sixteen, result):
    game = game_between(sixteen[0], sixteen[1])
    with pytest.raises(Invalid) as refused:
        services.game_result_record(competition=started, game_id=game.pk, result=result, revision=0)
    assert refused.value.code == "bad_result"


def test_it_refuses_a_game_of_another_competition(started, event):
    game = started_duel(event, "other").game
    for game_id in (game.pk, 10**9):
        with pytest.raises(NotFound) as refused:
            services.game_result_record(
                competition=started, game_id=game_id, result="1-0", revision=0
            )
        assert refused.value.code == "game_not_in_competition"


def test_it_refuses_results_before_the_start(league, sixteen):
    with pytest.raises(Refused) as refused:
        services.game_result_record(competition=league, game_id=1, result="1-0", revision=0)
    assert refused.value.code == "not_running"


H = dt.timedelta(hours=1)


def test_a_resignation_is_recorded_at_once(duel):
    competition, game, white, black = duel
    assert services.result_report(entry=black, game_id=game.pk, result="1-0", now=START + H)
    assert detail(game).ending == Ending.PLAYED


def test_a_claimed_win_waits_for_the_opponent(duel):
    competition, game, white, black = duel
    assert not services.result_report(entry=white, game_id=game.pk, result="1-0", now=START)
    assert not services.result_report(entry=black, game_id=game.pk, result="1/2-1/2", now=START)
    assert not detail(game).is_over and ResultReport.objects.count() == 2
    assert services.result_report(entry=white, game_id=game.pk, result="1/2-1/2", now=START)
    assert detail(game).ending == Ending.PLAYED
    with pytest.raises(Gone) as refused:
        services.result_report(entry=white, game_id=game.pk, result="1-0", now=START)
    assert refused.value.code == "result_already_recorded"
    with pytest.raises(Invalid) as refused:
        services.result_report(entry=white, game_id=game.pk, result="2-0", now=START)
    assert refused.value.code == "bad_result"


@pytest.mark.parametrize("colour", ["white", "black"])
@pytest.mark.parametrize("outcome", ["lost", "resign"])
def test_losing_or_resigning_is_recorded_at_once_for_either_colour(duel, colour, outcome):
    competition, game, white, black = duel
    player = white if colour == "white" else black
    assert services.result_claim(entry=player, game_id=game.pk, outcome=outcome, now=START + H)
    # the player's loss, whatever their colour
    assert points(game) == ((0, 1) if colour == "white" else (1, 0))


@pytest.mark.parametrize("colour", ["white", "black"])
def test_a_win_waits_for_the_opponent_and_is_recorded_from_whites_side(duel, colour):
    competition, game, white, black = duel
    winner, loser = (white, black) if colour == "white" else (black, white)
    assert not services.result_claim(entry=winner, game_id=game.pk, outcome="won", now=START + H)
    assert ResultReport.objects.get(entry=winner).result == ("1-0" if colour == "white" else "0-1")
    assert points(game) == (None, None)
    assert services.result_claim(entry=loser, game_id=game.pk, outcome="lost", now=START + 2 * H)
    assert points(game) == ((1, 0) if colour == "white" else (0, 1))


def test_a_draw_needs_both_players(duel):
    competition, game, white, black = duel
    assert not services.result_claim(entry=black, game_id=game.pk, outcome="draw", now=START + H)
    assert services.result_claim(entry=white, game_id=game.pk, outcome="draw", now=START + H)
    assert points(game) == (rules.HALF, rules.HALF)


def test_replacing_a_result_needs_confirming_and_a_fresh_revision(duel):
    competition, game, white, black = duel
    services.game_result_record(competition=competition, game_id=game.pk, result="1-0", revision=0)
    with pytest.raises(Conflict) as refused:
        services.game_result_record(
            competition=competition, game_id=game.pk, result="0-1", revision=1
        )
    assert refused.value.code == "confirm_replace"
    assert "1-0" in refused.value.text and "0-1" in refused.value.text
    assert points(game) == (1, 0)
    # the same result again is no replacement
    services.game_result_record(competition=competition, game_id=game.pk, result="1-0", revision=1)
    game.refresh_from_db()
    with pytest.raises(Stale):  # a confirmation drawn from an older revision
        services.game_result_record(
            competition=competition,
            game_id=game.pk,
            result="0-1",
            revision=game.revision - 1,
            confirmed=True,
        )
    services.game_result_record(
        competition=competition,
        game_id=game.pk,
        result="0-1",
        revision=game.revision,
        confirmed=True,
    )
    assert points(game) == (0, 1)


def test_a_black_player_confirms_i_won_on_the_page_without_javascript(client, duel):
    competition, game, white, black = duel
    page = private(client, black)
    with time_machine.travel(START + H, tick=False):
        asked = client.post(page, {"game": game.pk, "outcome": "won"})
        html = asked.content.decode()
        assert asked.status_code == 200 and "<html" in html  # a second screen, nothing saved
        assert f"Confirm: you won against {white.player.name} as Black?" in html
        assert "It is recorded as 0-1 when your opponent reports the same." in html
        assert not ResultReport.objects.exists()
        done = client.post(page, {"game": game.pk, "outcome": "won", "confirm": "1"})
    assert done.status_code == 303
    assert ResultReport.objects.get(entry=black).result == "0-1"
