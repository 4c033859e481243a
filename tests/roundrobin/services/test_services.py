"""The organiser's actions: start, results, corrections, tiebreaks, withdrawals, ratings."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import models

from events.errors import Conflict, Invalid, NotFound, Refused, Stale
from events.models import Competition, Game, Player, Seat, Session
from roundrobin import rules, selectors, services
from roundrobin.models import Ending, GameDetail, RatingChange, RatingSnapshot, Withdrawal
from tests.support.roundrobin import (
    START,
    enter_players,
    game_between,
    make_competition,
    play,
    started_duel,
)

HOUR = dt.timedelta(hours=1)


def tables(competition):
    return {t.number: t for t in selectors.tables_for_competition(competition)}


def seats_of(table_number, competition):
    return [
        s.entry
        for s in RatingSnapshot.objects.filter(
            entry__competition=competition, table=table_number
        ).order_by("seed")
    ]


# --- start ---------------------------------------------------------------------------------------


def test_it_starts_sixteen_players_in_three_tables(started, sixteen):
    sessions = Session.objects.filter(competition=started).order_by("number")
    assert [s.kind for s in sessions] == ["table"] * 3
    assert all(s.starts_at == START for s in sessions)
    # T-RR-01: 6/5/5, strongest first.
    assert [seats_of(n, started) for n in (1, 2, 3)] == [sixteen[:6], sixteen[6:11], sixteen[11:]]
    counts = [Game.objects.filter(round__session=s).count() for s in sessions]
    assert counts == [15, 10, 10]
    assert started.status == Competition.Status.RUNNING
    assert GameDetail.objects.filter(ending=Ending.OPEN).count() == 35
    assert set(Game.objects.values_list("status", flat=True)) == {"playing"}
    game = Game.objects.first()
    colours = list(Seat.objects.filter(game=game).order_by("position").values_list("colour"))
    assert colours == [("white",), ("black",)]
    snapshot = RatingSnapshot.objects.get(entry=sixteen[0])
    assert (snapshot.rating, snapshot.seed, snapshot.table) == (2000, 1, 1)
    assert not snapshot.provisional


def test_it_draws_the_same_colours_from_the_same_seed(event):
    def colours(slug):
        competition = make_competition(event, slug=slug)
        players = enter_players(competition, 7)
        services.competition_start(competition=competition, seed=99, now=START)
        order = {e.pk: i for i, e in enumerate(players)}
        return [
            tuple(order[s.entry_id] for s in g.seats.order_by("position"))
            for g in Game.objects.filter(round__session__competition=competition).order_by("number")
        ]

    assert colours("a") == colours("b")


def test_it_gives_balanced_colours_with_berger_tables(event):
    competition = make_competition(event, colours="berger")
    enter_players(competition, 7)
    services.competition_start(competition=competition, seed=5, now=START)
    whites = Seat.objects.filter(position=1, game__round__session__competition=competition)
    per_player = {}
    for seat in whites:
        per_player[seat.entry_id] = per_player.get(seat.entry_id, 0) + 1
    assert sorted(per_player.values()) == [3] * 7


def test_it_refuses_to_start_twice(started):
    with pytest.raises(Conflict) as refused:
        services.competition_start(competition=started)
    assert refused.value.code == "already_started"


def test_it_refuses_to_start_with_one_player(league):
    enter_players(league, 1)
    with pytest.raises(Refused) as refused:
        services.competition_start(competition=league)
    assert refused.value.code == "cannot_start"
    assert not Session.objects.filter(competition=league).exists()


def test_it_refuses_another_format(competition):
    with pytest.raises(Refused) as refused:
        services.competition_start(competition=competition)
    assert refused.value.code == "not_round_robin"


def test_it_leaves_players_not_checked_in_out(league):
    players = enter_players(league, 3)
    from tests.support.factories import EntryFactory

    late = EntryFactory(competition=league)
    services.competition_start(competition=league, seed=1, now=START)
    assert not RatingSnapshot.objects.filter(entry=late).exists()
    assert RatingSnapshot.objects.filter(entry__in=players).count() == 3


def test_new_players_start_at_1500_provisional(league):
    from events.services import entry_check_in, player_register_new

    for name in ("Nieuw Een", "Nieuw Twee"):
        entry_check_in(entry=player_register_new(competition=league, name=name))
    services.competition_start(competition=league, seed=1, now=START)
    snapshots = RatingSnapshot.objects.filter(entry__competition=league)
    assert {(s.rating, s.provisional) for s in snapshots} == {(1500, True)}
    game = Game.objects.get(round__session__competition=league)
    services.game_result_record(
        competition=league, game_id=game.pk, result="1-0", revision=0, now=START + HOUR
    )
    # T-ELO-04: K = 40 for both.
    white = Seat.objects.get(game=game, position=1).entry.player
    assert (white.rating, white.rated_games) == (1520, 1)


# --- results and ratings -------------------------------------------------------------------------


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


def test_an_unrated_competition_changes_no_rating(event):
    duel = started_duel(event, "friendly", rated=False)
    competition, (a, b) = duel.competition, duel.entries
    play(competition, b, a)
    assert not RatingChange.objects.exists()
    assert Player.objects.get(pk=a.player_id).rating == 2000


def test_a_correction_recomputes_later_rating_changes(started, sixteen):
    a, b, c = sixteen[:3]
    first = play(started, a, b, at=START + HOUR)
    play(started, b, c, at=START + 2 * HOUR)
    play(started, a, c, at=START + 3 * HOUR)
    # The first result was wrong: b won.
    first.refresh_from_db()
    white = Seat.objects.get(game=first, position=1).entry_id
    services.game_result_record(
        competition=started,
        game_id=first.pk,
        result="0-1" if white == a.pk else "1-0",
        revision=first.revision,
        now=START + 5 * HOUR,
        confirmed=True,
    )
    # The same chain computed by hand from the snapshot, in finish order.
    r = {a.pk: 2000, b.pk: 1980, c.pk: 1960}

    def apply(x, y, score):
        dx, dy = rules.rating_changes(r[x], r[y], score, 20, 20)
        r[x] += dx
        r[y] += dy

    apply(b.pk, a.pk, 1)
    apply(b.pk, c.pk, 1)
    apply(a.pk, c.pk, 1)
    for entry in (a, b, c):
        assert Player.objects.get(pk=entry.player_id).rating == r[entry.pk]
        assert Player.objects.get(pk=entry.player_id).rated_games == 42
    assert GameDetail.objects.get(game=first).ended_at == START + HOUR
    assert RatingChange.objects.filter(competition=started).count() == 6


def test_rated_games_count_each_game_once_after_corrections(started, sixteen):
    a, b = sixteen[:2]
    game = play(started, a, b)
    for revision, result in ((1, "0-1"), (2, "1/2-1/2"), (3, "1-0")):
        services.game_result_record(
            competition=started, game_id=game.pk, result=result, revision=revision, confirmed=True
        )
    assert Player.objects.get(pk=a.player_id).rated_games == 41
    assert RatingChange.objects.filter(game=game).count() == 2


# --- withdrawals ---------------------------------------------------------------------------------


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


# --- tiebreaks -----------------------------------------------------------------------------------


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


# --- a 16-player event, start to finish------------------------------------------------------------


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


def test_a_rating_change_bumps_the_other_competitions_of_those_players(event):
    from tests.support.factories import EntryFactory

    duel = started_duel(event, "here", seed=3)
    here, (a, b) = duel.competition, duel.entries
    elsewhere = make_competition(event, slug="elsewhere")
    EntryFactory(competition=elsewhere, player=a.player)
    unrelated = make_competition(event, slug="unrelated")
    enter_players(unrelated, 2)
    before = {c.slug: c.version for c in Competition.objects.all()}
    play(here, a, b)
    after = {c.slug: c.version for c in Competition.objects.all()}
    assert after["elsewhere"] > before["elsewhere"]
    assert after["unrelated"] == before["unrelated"]
