"""Tests of roundrobin/services/tiebreaks.py: tiebreak stages, their games and the podium."""

from __future__ import annotations

from decimal import Decimal

from django.db import models

from events.models import Game, Player, Seat
from roundrobin import services
from roundrobin.models import GameDetail, RatingChange, RatingSnapshot
from tests.support.roundrobin import (
    HOUR,
    START,
    enter_players,
    make_competition,
    play,
    seats_of,
    tables,
)


def play_table(competition, table, exceptions=()):
    """Every game of a table: the better seed wins, except (winner, loser) or (a, b, 'draw')."""
    special = {}
    for item in exceptions:
        special[frozenset(item[:2])] = item
    for i, a in enumerate(table):
        for b in table[i + 1 :]:
            item = special.get(frozenset((a, b)))
            if item is None:
                play(competition, a, b)
            elif len(item) == 3:
                play(competition, a, b, draw=True)
            else:
                play(competition, item[0], item[1])


def test_a_tie_for_first_creates_a_decider_once_the_table_is_done(event):
    competition = make_competition(event)
    table = enter_players(competition, 4)
    services.competition_start(competition=competition, seed=3, now=START)
    a, b, c, d = table
    play(competition, a, b, draw=True)
    play(competition, a, c)
    play(competition, b, c)
    play(competition, a, d)
    assert not Game.objects.filter(round__number=2).exists()  # one regular game open
    play(competition, b, d)
    play(competition, c, d)
    stage_games = Game.objects.filter(round__session__competition=competition, round__number=2)
    assert stage_games.count() == 1
    view = tables(competition)[1]
    assert view.stages[0].stage.kind == "decider" and not view.is_final
    assert [r.place_label for r in view.rows] == ["1=", "1=", "3", "4"]
    # The decider is drawn: replay once.
    play(competition, a, b, draw=True)
    view = tables(competition)[1]
    assert [s.stage.attempt for s in view.stages] == [1, 2]
    # The replay is drawn too: they share first.
    play(competition, a, b, draw=True)
    view = tables(competition)[1]
    assert view.is_final
    assert [r.place_label for r in view.rows] == ["1=", "1=", "3", "4"]
    assert view.points[a.pk] == view.points[b.pk] == Decimal("2.5")
    competition.refresh_from_db()
    assert competition.status == "finished"
    # Tiebreak games are rated.
    assert RatingChange.objects.filter(game__round__number__gt=1).count() == 4


def test_a_correction_that_removes_the_tie_drops_the_unplayed_decider(event):
    competition = make_competition(event)
    a, b, c = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=3, now=START)
    draw = play(competition, a, b, draw=True)
    play(competition, a, c)
    play(competition, b, c)
    assert Game.objects.filter(round__number=2).count() == 1
    draw.refresh_from_db()
    white = Seat.objects.get(game=draw, position=1).entry_id
    services.game_result_record(
        competition=competition,
        game_id=draw.pk,
        result="1-0" if white == a.pk else "0-1",
        revision=draw.revision,
        confirmed=True,
    )
    assert not Game.objects.filter(round__number=2).exists()
    assert tables(competition)[1].is_final


def test_three_tied_play_a_mini_round_robin(event):
    competition = make_competition(event)
    table = enter_players(competition, 5)
    services.competition_start(competition=competition, seed=3, now=START)
    a, b, c = table[:3]
    play_table(competition, table, [(b, a), (c, b)])
    view = tables(competition)[1]
    assert view.stages[0].stage.kind == "mini_round_robin"
    assert len(view.stages[0].games) == 3
    play(competition, a, b)
    play(competition, a, c)
    play(competition, b, c)
    view = tables(competition)[1]
    assert view.is_final
    assert [r.entry for r in view.rows[:3]] == [a, b, c]
    assert [r.place_label for r in view.rows[:3]] == ["1", "2", "3"]


def test_a_withdrawn_player_in_a_decider_loses_it_by_forfeit(event):
    competition = make_competition(event)
    a, b, c = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=3, now=START)
    play(competition, a, b, draw=True)
    play(competition, a, c)
    play(competition, b, c)
    services.entry_withdraw(entry=a)
    view = tables(competition)[1]
    assert view.is_final
    assert [(r.entry, r.place_label) for r in view.rows] == [(b, "1"), (a, "2"), (c, "3")]


def test_a_sixteen_player_event_runs_to_every_podium(started, sixteen):
    t1, t2, t3 = (seats_of(n, started) for n in (1, 2, 3))
    clock = iter(START + n * HOUR for n in range(1, 200))

    # Table 1 (6 players): p1 and p2 draw and win everything else: a decider for 1st.
    for i, x in enumerate(t1):
        for y in t1[i + 1 :]:
            if {x, y} == {t1[0], t1[1]}:
                play(started, x, y, draw=True, at=next(clock))
            else:
                play(started, x, y, at=next(clock))
    # Table 2 (5 players): the strongest withdraws after one game: struck.
    play(started, t2[0], t2[1], at=next(clock))
    services.entry_withdraw(entry=t2[0], now=next(clock))
    for i, x in enumerate(t2[1:], start=1):
        for y in t2[i + 1 :]:
            play(started, x, y, at=next(clock))
    # Table 3 (5 players): the last seed withdraws after two games: forfeits.
    play(started, t3[0], t3[4], at=next(clock))
    play(started, t3[1], t3[4], at=next(clock))
    services.entry_withdraw(entry=t3[4], now=next(clock))
    for i, x in enumerate(t3[:4]):
        for y in t3[i + 1 : 4]:
            play(started, x, y, at=next(clock))

    view = tables(started)
    assert view[2].is_final and view[3].is_final and not view[1].is_final
    assert [r.place_label for r in view[1].rows[:2]] == ["1=", "1="]
    # The decider: p2 wins it.
    play(started, t1[1], t1[0], at=next(clock))
    view = tables(started)
    assert all(v.is_final for v in view.values())
    assert [r.entry for r in view[1].podium] == [t1[1], t1[0], t1[2]]
    assert view[1].points[t1[0].pk] == view[1].points[t1[1].pk] == Decimal("4.5")
    assert [r.entry for r in view[2].podium] == t2[1:4]
    assert [r.entry for r in view[3].podium] == t3[:3]
    assert view[3].points[t3[0].pk] == 4  # a forfeit win counts
    started.refresh_from_db()
    assert started.status == "finished"

    # Ratings: one change per player per rated game; forfeits and cancelled games unrated.
    rated = GameDetail.objects.filter(game__round__session__competition=started, rated=True)
    assert RatingChange.objects.filter(competition=started).count() == 2 * rated.count()
    assert rated.count() == 15 + 1 + 1 + 6 + 2 + 6  # t1 + decider + t2 + t3
    for entry in sixteen:
        player = Player.objects.get(pk=entry.player_id)
        snapshot = RatingSnapshot.objects.get(entry=entry)
        changes = RatingChange.objects.filter(entry=entry)
        assert player.rating == snapshot.rating + sum(c.change for c in changes)
        assert player.rated_games == snapshot.rated_games + changes.count()


def test_a_mini_round_robin_for_third_shares_fourth_among_the_others(event):
    # Reviewer's case (T-RR-14): A 4, B 3, C/D/E 1 each in a circle; C beats D and E, D beats E.
    competition = make_competition(event)
    a, b, c, d, e = enter_players(competition, 5)
    services.competition_start(competition=competition, seed=3, now=START)
    play_table(competition, [a, b, c, d, e], [(c, d), (d, e), (e, c)])
    assert tables(competition)[1].stages[0].stage.place == 3
    play(competition, c, d)
    play(competition, c, e)
    play(competition, d, e)
    view = tables(competition)[1]
    assert view.is_final
    assert [(r.entry, r.place_label) for r in view.rows] == [
        (a, "1"),
        (b, "2"),
        (c, "3"),
        (d, "4="),
        (e, "4="),
    ]


def test_a_stage_made_unnecessary_cancels_its_open_games_and_reopens_if_needed_again(event):
    from roundrobin.models import Turn

    competition = make_competition(event)
    a, b, c, d = enter_players(competition, 4)
    services.competition_start(competition=competition, seed=3, now=START)
    play_table(competition, [a, b, c, d], [(b, c), (c, a)])  # a, b, c 2 points each
    stage_games = Game.objects.filter(round__session__competition=competition, round__number=2)
    assert stage_games.count() == 3
    play(competition, a, b, at=START + HOUR)  # one mini round robin game is played
    # A correction: a beat c after all -> no tie; the stage stays (a rated game) but stops.
    regular = Game.objects.filter(round__number=1, seats__entry=a).get(seats__entry=c)
    white = Seat.objects.get(game=regular, position=1).entry_id
    later = START + 5 * HOUR
    services.game_result_record(
        competition=competition,
        game_id=regular.pk,
        result="1-0" if white == a.pk else "0-1",
        revision=regular.revision,
        now=later,
        confirmed=True,
    )
    endings = sorted(GameDetail.objects.filter(game__in=stage_games).values_list("ending", "rated"))
    assert endings == [("cancelled", False), ("cancelled", False), ("played_out", True)]
    assert not Turn.objects.filter(game__in=stage_games, closed_at__isnull=True).exists()
    assert (
        not Turn.objects.filter(game__in=stage_games)
        .filter(models.Q(first_missed=True) | models.Q(second_missed=True))
        .exists()
    )
    assert services.deadlines_process(now=later + 100 * HOUR).closed == 0
    competition.refresh_from_db()
    assert competition.status == "finished" and tables(competition)[1].is_final
    # Corrected back: the tie is there again, the cancelled games reopen from now.
    regular.refresh_from_db()
    again = START + 9 * HOUR
    services.game_result_record(
        competition=competition,
        game_id=regular.pk,
        result="0-1" if white == a.pk else "1-0",
        revision=regular.revision,
        now=again,
        confirmed=True,
    )
    assert GameDetail.objects.filter(game__in=stage_games, ending="").count() == 2
    reopened = Turn.objects.filter(game__in=stage_games, closed_at__isnull=True)
    assert reopened.count() == 2 and {t.opened_at for t in reopened} == {again}
    competition.refresh_from_db()
    assert competition.status == "running"
