"""Tests of roundrobin/services/withdrawals.py: a player's withdrawal (strike or forfeit)."""

from __future__ import annotations

import datetime as dt

import pytest

from events.errors import Conflict, Refused, Stale
from events.models import Player
from roundrobin import selectors, services
from roundrobin.models import Ending, GameDetail, Withdrawal
from tests.support.roundrobin import (
    HOUR,
    START,
    enter_players,
    game_between,
    make_competition,
    play,
    seats_of,
    tables,
)


def test_a_withdrawal_before_half_strikes_every_game(started):
    table = seats_of(2, started)  # 5 players, 4 games each
    w, x, y = table[0], table[1], table[2]
    play(started, w, x)  # W finished 1 game < 2: struck
    play(started, x, y)
    effect, finished, scheduled, fates = selectors.withdrawal_outlook(w)
    assert (effect, finished, scheduled) == ("strike", 1, 4)
    assert {fate for _, fate in fates} == {"struck"}
    rating_before = Player.objects.get(pk=w.player_id).rating
    services.entry_withdraw(entry=w, now=START + 2 * HOUR)
    assert Withdrawal.objects.get(entry=w).effect == "strike"
    details = GameDetail.objects.filter(game__seats__entry=w)
    assert all(d.struck for d in details)
    assert sorted(d.ending for d in details) == ["cancelled"] * 3 + ["played_out"]
    view = tables(started)[2]
    assert w.pk not in view.points and view.points[x.pk] == 1
    assert [row.entry for row in view.rows][-1] == w and view.rows[-1].struck
    # R-RR-24: the struck game stays rated.
    assert Player.objects.get(pk=w.player_id).rating == rating_before
    with pytest.raises(Conflict) as refused:
        services.entry_withdraw(entry=w)
    assert refused.value.code == "already_withdrawn"


def test_a_withdrawal_at_half_forfeits_the_rest(started):
    table = seats_of(3, started)
    w, x, y, z = table[:4]
    play(started, w, x)
    play(started, y, w)  # 2 finished of 4: results stand
    services.entry_withdraw(entry=w, now=START + 2 * HOUR)
    forfeits = GameDetail.objects.filter(game__seats__entry=w, ending=Ending.FORFEIT)
    assert forfeits.count() == 2 and not any(d.rated for d in forfeits)
    view = tables(started)[3]
    assert view.points[w.pk] == 1 and view.points[z.pk] == 1
    forfeit = forfeits.first()
    with pytest.raises(Refused) as refused:
        services.game_result_record(
            competition=started, game_id=forfeit.pk, result="1-0", revision=1
        )
    assert refused.value.code == "result_not_editable"


def test_a_withdrawal_from_a_stale_preview_is_refused(started):
    w = seats_of(1, started)[0]
    with pytest.raises(Stale) as refused:
        services.entry_withdraw(entry=w, expected="strike:0:")
    assert refused.value.code == "stale_withdrawal"
    assert not Withdrawal.objects.filter(entry=w).exists()


def test_it_refuses_to_withdraw_someone_not_at_a_table(league):
    players = enter_players(league, 3)
    from tests.support.factories import EntryFactory

    late = EntryFactory(competition=league)
    services.competition_start(competition=league, seed=1, now=START)
    with pytest.raises(Refused) as refused:
        services.entry_withdraw(entry=late)
    assert refused.value.code == "not_at_a_table"
    del players


def test_a_game_cancelled_by_another_withdrawal_is_not_a_finished_game(event):
    competition = make_competition(event)
    table = enter_players(competition, 7)  # one table, 6 games each
    services.competition_start(competition=competition, seed=3, now=START)
    w, x, y, z = table[:4]
    services.entry_withdraw(entry=x, now=START + HOUR)  # 0 finished: struck, its games cancelled
    assert GameDetail.objects.get(game=game_between(w, x)).ending == Ending.CANCELLED
    play(competition, w, y)
    play(competition, z, w)
    effect, finished, scheduled, _fates = selectors.withdrawal_outlook(w)
    assert (effect, finished, scheduled) == ("strike", 2, 6)
    assert services.entry_withdraw(entry=w, now=START + 2 * HOUR).effect == "strike"


def test_a_withdrawal_counts_a_time_loss_not_yet_processed(event):
    competition = make_competition(event)
    table = enter_players(competition, 5)  # 4 games each: 2 finished keep the results
    services.competition_start(competition=competition, seed=3, now=START)
    w, x, y, z, v = table
    play(competition, w, y, at=START + HOUR)
    for other in (z, v):  # both move turn 1 early: these games run until START + 49 h
        running = game_between(w, other)
        for player in (w, other):
            services.move_submit(
                entry=player, game_id=running.pk, turn=1, text="e4", now=START + HOUR
            )
    game = game_between(w, x)
    services.move_submit(entry=x, game_id=game.pk, turn=1, text="e4", now=START + HOUR)
    services.move_submit(entry=x, game_id=game.pk, turn=2, text="d4", now=START + 25 * HOUR)
    # W missed turns 1 and 2: lost on time at the turn 2 deadline, not written yet.
    now = START + 48 * HOUR + 30 * dt.timedelta(minutes=1)
    assert GameDetail.objects.get(game=game).ending == Ending.OPEN
    effect, finished, scheduled, fates = selectors.withdrawal_outlook(w, now)
    assert (effect, finished, scheduled) == ("forfeit", 2, 4)
    seen = selectors.withdrawal_signature(effect, finished, fates)
    withdrawal = services.entry_withdraw(entry=w, now=now, expected=seen)  # the same as shown
    assert (withdrawal.effect, withdrawal.finished) == ("forfeit", 2)
    lost = GameDetail.objects.get(game=game)
    assert lost.ending in (Ending.FIRST_LOST_ON_TIME, Ending.SECOND_LOST_ON_TIME)
    assert lost.ended_at == START + 48 * HOUR
