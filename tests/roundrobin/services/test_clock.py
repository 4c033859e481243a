"""The correspondence clock: turns, moves, deadlines, time losses, double forfeits, reminders."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from events.errors import Conflict, Forbidden, Gone, Invalid, NotFound
from events.models import Game, Player, Seat
from roundrobin import rules, selectors, services
from roundrobin.models import Ending, GameDetail, PlayerToken, Turn
from tests.support.roundrobin import (
    SETTINGS,
    START,
    detail,
    enter_players,
    make_competition,
    move,
    started_duel,
)

H = dt.timedelta(hours=1)
DAY = 24 * H


def turns_of(game):
    return list(
        Turn.objects.filter(game=game)
        .order_by("number")
        .values_list(
            "number", "opened_at", "deadline", "closed_at", "first_missed", "second_missed"
        )
    )


def sweep(at):
    with time_machine.travel(at, tick=False):
        return services.deadlines_process()


def test_turn_1_of_every_game_opens_at_the_start(started):
    turns = Turn.objects.filter(game__round__session__competition=started)
    assert turns.count() == 35
    assert {(t.number, t.opened_at, t.deadline, t.closed_at) for t in turns} == {
        (1, START, START + DAY, None)
    }
    tokens = list(PlayerToken.objects.filter(entry__competition=started))
    assert len(tokens) == 16 and len({t.token for t in tokens}) == 16
    assert all(len(t.token) >= 43 for t in tokens)


def test_the_turn_length_follows_hours_per_move(event):
    competition = make_competition(event, slug="fast", hours_per_move=6)
    enter_players(competition, 3)
    services.competition_start(competition=competition, now=START)
    assert set(Turn.objects.values_list("deadline", flat=True)) == {START + 6 * H}


def test_a_turn_closes_when_both_have_moved_and_the_next_opens_then(duel):
    competition, game, white, black = duel
    move(white, game, 1, "e4", START + 2 * H)
    assert Turn.objects.get(game=game, number=1).closed_at is None
    move(black, game, 1, "e5", START + 5 * H)  # T-RR-09
    first, second = Turn.objects.filter(game=game).order_by("number")
    assert (first.closed_at, first.first_move, first.second_move) == (START + 5 * H, "e4", "e5")
    assert (second.opened_at, second.deadline) == (START + 5 * H, START + 29 * H)


def test_a_single_miss_keeps_the_game_going_and_processes_the_opponents_move(duel):
    competition, game, white, black = duel
    move(white, game, 1, "d4", START + H)
    report = sweep(START + DAY + H)  # T-RR-08
    assert (report.closed, report.finished) == (1, 0)
    assert turns_of(game) == [
        (1, START, START + DAY, START + DAY, False, True),
        (2, START + DAY, START + 2 * DAY, None, False, False),
    ]
    assert Turn.objects.get(game=game, number=1).first_move == "d4"
    assert not detail(game).is_over


def test_two_misses_in_a_row_lose_on_time_and_the_loss_is_rated(duel):
    competition, game, white, black = duel
    move(white, game, 1, "e4", START + H)
    move(black, game, 1, "e5", START + 2 * H)  # turn 2 opens at START + 2h
    move(white, game, 2, "Nf3", START + 3 * H)
    sweep(START + 2 * H + DAY + H)  # black misses turn 2
    move(white, game, 3, "Bc4", START + 2 * H + DAY + 2 * H)
    before = Player.objects.get(pk=black.player_id).rating
    report = sweep(START + 2 * H + 2 * DAY + H)  # black misses turn 3 -> loses (T-RR-04)
    assert report.finished == 1
    d = detail(game)
    assert d.ending == Ending.SECOND_LOST_ON_TIME and d.rated
    assert d.ended_at == START + 2 * H + 2 * DAY
    points = list(Seat.objects.filter(game=game).order_by("position").values_list("points"))
    assert [p[0] for p in points] == [1, 0]
    assert Player.objects.get(pk=black.player_id).rating < before
    assert Turn.objects.filter(game=game, closed_at__isnull=True).count() == 0


def test_a_time_loss_without_any_move_is_unrated(duel):
    competition, game, white, black = duel
    move(white, game, 1, "e4", START + H)
    sweep(START + DAY + H)
    move(white, game, 2, "d4", START + DAY + 2 * H)
    sweep(START + 2 * DAY + H)
    d = detail(game)
    assert d.ending == Ending.SECOND_LOST_ON_TIME and not d.rated  # N-RR-07


def test_the_second_double_timeout_is_a_double_forfeit(duel):
    competition, game, white, black = duel
    sweep(START + DAY + H)  # double timeout 1 at turn 1
    move(white, game, 2, "e4", START + DAY + H)
    move(black, game, 2, "e5", START + DAY + 2 * H)  # turn 3 opens at START + 26h
    assert not detail(game).is_over
    report = sweep(START + 2 * DAY + 3 * H)  # double timeout 2 at turn 3 (T-RR-05)
    assert report.finished == 1
    d = detail(game)
    assert d.ending == Ending.DOUBLE_FORFEIT and not d.rated and d.is_over
    assert set(Seat.objects.filter(game=game).values_list("points", flat=True)) == {0}
    assert d.ended_at == START + 2 * DAY + 2 * H  # at the turn 3 deadline
    # 0-0 leaves the two tied for first: their decider's clock starts at the sweep, not at
    # the deadline that ended the game (the players could not move in it before).
    decider = Game.objects.exclude(pk=game.pk).get(round__session__competition=competition)
    assert Turn.objects.get(game=decider).opened_at == START + 2 * DAY + 3 * H


def test_a_long_silence_is_settled_in_one_sweep(duel):
    competition, game, white, black = duel
    report = sweep(START + 10 * DAY)  # T-RR-07: both miss turns 1 and 2
    assert (report.closed, report.finished) == (2, 1)
    assert detail(game).ending == Ending.DOUBLE_FORFEIT
    assert detail(game).ended_at == START + 2 * DAY
    # The decider it calls for starts now, at the sweep, not in the past (so it is not
    # settled by the same sweep before anyone could move in it).
    decider = Game.objects.exclude(pk=game.pk).get(round__session__competition=competition)
    assert turns_of(decider) == [(1, START + 10 * DAY, START + 11 * DAY, None, False, False)]
    assert competition.__class__.objects.get(pk=competition.pk).status == "running"
    # Silence again: the decider and then its replay end 0-0 too; the two share first.
    sweep(START + 13 * DAY)
    report = sweep(START + 16 * DAY)
    assert report.finished == 1
    assert competition.__class__.objects.get(pk=competition.pk).status == "finished"
    assert not Turn.objects.filter(closed_at__isnull=True).exists()


def test_process_deadlines_twice_gives_the_same_state(started):
    first = sweep(START + DAY + H)
    state = sorted(
        Turn.objects.values_list("game", "number", "closed_at", "first_missed", "second_missed")
    )
    second = sweep(START + DAY + H)
    assert first.closed == 35 and second.closed == 0
    assert state == sorted(
        Turn.objects.values_list("game", "number", "closed_at", "first_missed", "second_missed")
    )


def test_a_tiebreak_game_gets_its_turn_1_when_it_is_created(duel):
    competition, game, white, black = duel
    services.game_result_record(
        competition=competition,
        game_id=game.pk,
        result="1/2-1/2",
        revision=game.revision,
        now=START + 5 * H,
    )
    decider = Game.objects.exclude(pk=game.pk).get(round__session__competition=competition)
    assert turns_of(decider) == [(1, START + 5 * H, START + 29 * H, None, False, False)]
    assert Turn.objects.get(game=game).closed_at == START + 5 * H  # the result stopped the clock


def test_the_clock_is_projected_past_an_unprocessed_deadline(duel):
    competition, game, white, black = duel
    move(white, game, 1, "e4", START + H)
    entry = selectors.entry_by_token(PlayerToken.objects.get(entry=white).token)
    clock = selectors.private_page(entry, START + DAY + H).games[0].clock
    assert clock.lagging and clock.number == 2 and clock.deadline == START + 2 * DAY
    assert clock.misses == (0, 1) and clock.is_open
    late = selectors.private_page(entry, START + 3 * DAY).games[0].clock
    assert late.outcome == rules.SECOND_LOST_ON_TIME and not late.is_open


def test_a_move_after_the_deadline_is_refused_showing_the_deadline(duel):
    competition, game, white, black = duel
    with pytest.raises(Conflict) as refused:
        move(white, game, 1, "e4", START + DAY + H)
    assert (
        refused.value.code == "late_move"
        and "2 Mar 2026, 1 p.m. (Europe/Stockholm)" in refused.value.text
    )
    assert Turn.objects.get(game=game, number=1).closed_at is None  # rolled back with it
    # The clock caught up when the move arrived: the move for turn 2 is taken.
    move(white, game, 2, "e4", START + DAY + H)
    assert Turn.objects.get(game=game, number=1).second_missed


def test_a_second_move_for_the_same_turn_is_refused(duel):
    competition, game, white, black = duel
    move(white, game, 1, "e4", START + H)
    with pytest.raises(Conflict) as refused:
        move(white, game, 1, "d4", START + 2 * H)
    assert refused.value.code == "second_move"
    assert Turn.objects.get(game=game, number=1).first_move == "e4"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "move_empty"),
        ("   ", "move_empty"),
        ("x" * 201, "move_too_long"),
        ("e4\x00", "move_bad_character"),
        ("e4\n", None),
        (None, "move_empty"),
    ],
)
def test_hostile_moves_are_refused(duel, text, code):
    competition, game, white, black = duel
    if code is None:
        assert move(white, game, 1, text, START + H).first_move == "e4"
        return
    with pytest.raises(Invalid) as refused:
        move(white, game, 1, text, START + H)
    assert refused.value.code == code and refused.value.http_status == 400


def test_a_withdrawn_players_moves_and_reports_are_forbidden(duel):
    competition, game, white, black = duel
    services.entry_withdraw(entry=white, now=START + H)
    with pytest.raises(Forbidden) as refused:
        move(white, game, 1, "e4", START + 2 * H)
    assert refused.value.code == "player_withdrawn"
    with pytest.raises(Forbidden) as refused:
        services.result_report(entry=white, game_id=game.pk, result="0-1", now=START + 2 * H)
    assert refused.value.code == "player_withdrawn"


def test_moves_in_other_games_finished_games_and_wrong_turns_are_refused(duel, started):
    competition, game, white, black = duel
    other = Game.objects.filter(round__session__competition=started).first()
    for game_id in (other.pk, "x", 10**9):
        with pytest.raises(NotFound) as refused:
            services.move_submit(entry=white, game_id=game_id, turn=1, text="e4", now=START)
        assert refused.value.code == "not_your_game"
    with pytest.raises(Conflict) as refused:
        move(white, game, 7, "e4", START + H)
    assert refused.value.code == "turn_not_current"
    sweep(START + 3 * DAY)
    with pytest.raises(Gone) as refused:
        move(white, game, 3, "e4", START + 3 * DAY)
    assert refused.value.code == "game_over"


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_sweeps_close_each_turn_once(event):
    import threading

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("row locks with skip_locked need PostgreSQL")
    competitions = []
    for index in range(3):
        competition = make_competition(event, slug=f"c{index}")
        enter_players(competition, 7)
        services.competition_start(competition=competition, now=START)
        competitions.append(competition)
    reports = []
    barrier = threading.Barrier(2)

    def run():
        try:
            barrier.wait()
            reports.append(services.deadlines_process(now=START + DAY + H))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.closed for r in reports) == 63
    assert Turn.objects.count() == 126
    assert Turn.objects.filter(closed_at__isnull=True, number=2).count() == 63


def test_a_decider_created_by_a_late_sweep_starts_its_clock_at_the_sweep(event):
    competition = make_competition(event, slug="late")
    a, b, c = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=1, now=START)
    for winner in (a, b):
        game = Game.objects.filter(seats__entry=winner).get(seats__entry=c)
        white = Seat.objects.get(game=game, position=1).entry_id
        services.game_result_record(
            competition=competition,
            game_id=game.pk,
            result="1-0" if white == winner.pk else "0-1",
            revision=game.revision,
            now=START + H,
        )
    # a-b: nobody moves -> two double timeouts -> 0-0 at the turn 2 deadline: a tie for 1st.
    game = Game.objects.filter(seats__entry=a).get(seats__entry=b)
    late = START + 5 * DAY
    sweep(late)
    assert detail(game).ending == Ending.DOUBLE_FORFEIT
    assert detail(game).ended_at == START + 2 * DAY  # the result keeps the real deadline
    decider = Game.objects.get(round__session__competition=competition, round__number=2)
    assert turns_of(decider) == [(1, late, late + DAY, None, False, False)]


def test_an_extended_deadline_concerns_that_turn_only(duel):
    competition, game, white, black = duel
    Turn.objects.filter(game=game, number=1).update(deadline=START + 3 * DAY)  # in admin
    move(white, game, 1, "e4", START + H)
    move(black, game, 1, "e5", START + 50 * H)  # both moved: turn 2 opens, 24 h long
    assert turns_of(game)[-1][:3] == (2, START + 50 * H, START + 74 * H)
    Turn.objects.filter(game=game, number=2).update(deadline=START + 6 * DAY)
    entry = selectors.entry_by_token(PlayerToken.objects.get(entry=white).token)
    projected = selectors.private_page(entry, START + 6 * DAY + H).games[0].clock
    assert (projected.number, projected.deadline) == (3, START + 7 * DAY)
    sweep(START + 6 * DAY + H)  # nobody moved turn 2: turn 3 opens at that deadline, 24 h
    assert turns_of(game)[-1][:3] == (3, START + 6 * DAY, START + 7 * DAY)


HTMX = {"HX-Request": "true"}


def desk(name, competition):
    return reverse(name, args=[competition.event.slug, competition.slug])


def private(entry):
    """A phone of its own for the player: opens the private link, returns (client, page)."""
    client = Client()
    response = client.get(reverse("roundrobin:private", args=[entry.rr_token.token]))
    assert response.status_code == 303
    return client, response["Location"]


def api(entry, game, method="get", body=None, suffix=""):
    client = Client()
    url = reverse("roundrobin:api_game", args=[game.pk]) + suffix
    headers = {"Authorization": f"Bearer {entry.rr_token.token}"}
    if method == "get":
        return client.get(url, headers=headers)
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def card(html: str, game: Game) -> str:
    start = html.index(f'id="game-{game.pk}"')
    return html[start : html.index("</li>\n", start)]


@pytest.fixture
def alternating(event, desk_client):
    """Two players; the organiser switches the turns to alternating and starts at START."""
    competition = make_competition(event, slug="alt")
    enter_players(competition, 2)
    data = {**SETTINGS, "rated": "on", "reminder_hours": 6, "turns": "alternating"}
    assert desk_client.post(desk("events:competition_settings", competition), data).status_code in (
        200,
        302,
    )
    competition.refresh_from_db()
    assert competition.settings["turns"] == "alternating"
    with time_machine.travel(START, tick=False):
        assert desk_client.post(desk("roundrobin:start", competition)).status_code == 302
    game = Game.objects.get(round__session__competition=competition)
    seats = Seat.objects.select_related("entry__rr_token", "entry__player").filter(game=game)
    white = next(s.entry for s in seats if s.position == 1)
    black = next(s.entry for s in seats if s.position == 2)
    return competition, game, white, black


def test_moves_alternate_a_missed_move_counts_and_the_sweep_ends_the_game(
    alternating, desk_client, django_assert_max_num_queries
):
    competition, game, white, black = alternating
    turn_1 = Turn.objects.get(game=game)
    assert (turn_1.number, turn_1.mover, turn_1.deadline) == (1, 1, START + 24 * H)
    white_phone, white_page = private(white)
    black_phone, black_page = private(black)

    # Turn 1 is White's: Black sees whose move it is and the deadline, without a move form.
    with time_machine.travel(START + H, tick=False):
        html = card(black_phone.get(black_page).content.decode(), game)
        assert f"{white.player.name} to move" in html and 'name="move"' not in html
        assert "22 h 59 min left" in html or "23 h 00 min left" in html
        refused = black_phone.post(
            black_page, {"game": game.pk, "turn": 1, "move": "e5"}, headers=HTMX
        )
        assert "your opponent&#x27;s move in turn 1" in refused.content.decode()
        html = card(white_phone.get(white_page).content.decode(), game)
        assert "Your move" in html and 'name="move"' in html
        with django_assert_max_num_queries(8):  # the page costs what a simultaneous one does
            assert white_phone.get(white_page).status_code == 200
        sent = white_phone.post(white_page, {"game": game.pk, "turn": 1, "move": "e4"})
        assert sent.status_code == 303

    # White's move closed turn 1 at once; turn 2 is Black's, 24 hours from White's move.
    turn_2 = Turn.objects.get(game=game, closed_at__isnull=True)
    assert (turn_2.number, turn_2.mover, turn_2.deadline) == (2, 2, START + 25 * H)
    with time_machine.travel(START + 2 * H, tick=False):
        answer = api(black, game).json()
        assert answer["turns_model"] == "alternating"
        assert answer["turn"]["to_move"] == "black" and answer["turn"]["your_move"] is True
        assert answer["turn"]["deadline"] == (START + 25 * H).isoformat()
        assert api(white, game).json()["turn"]["your_move"] is False
        html = card(black_phone.get(black_page).content.decode(), game)
        assert "Your move" in html and "your opponent played e4" in html
        table = desk_client.get(
            reverse("roundrobin:desk_table", args=[competition.event.slug, competition.slug, 1])
        ).content.decode()
        assert "Black to move" in table and "White moved" not in table

    # Black lets turn 2 expire: the page already shows turn 3 as White's (projected), the
    # sweep records the miss (Black's only) and opens turn 3 at the missed deadline.
    with time_machine.travel(START + 26 * H, tick=False):
        html = card(white_phone.get(white_page).content.decode(), game)
        assert "Your move" in html and "your opponent missed their move" in html
        call_command("process_deadlines")
    turn_2.refresh_from_db()
    assert (turn_2.second_missed, turn_2.first_missed) == (True, False)
    turn_3 = Turn.objects.get(game=game, closed_at__isnull=True)
    assert (turn_3.number, turn_3.mover, turn_3.opened_at) == (3, 1, START + 25 * H)
    assert turn_3.deadline == START + 49 * H

    # White moves again; Black misses a second own move in a row: Black loses on time.
    with time_machine.travel(START + 27 * H, tick=False):
        assert api(white, game, "post", {"turn": 3, "move": "Nf3"}, "move/").status_code == 201
        assert api(white, game, "post", {"turn": 4, "move": "d4"}, "move/").status_code == 409
    with time_machine.travel(START + 27 * H + 25 * H, tick=False):
        call_command("process_deadlines")
        call_command("process_deadlines")  # idempotent
        html = card(black_phone.get(black_page).content.decode(), game)
    detail = GameDetail.objects.get(game=game)
    assert detail.ending == Ending.SECOND_LOST_ON_TIME and detail.ended_at == START + 51 * H
    assert not detail.rated  # Black never moved in time: unrated (N-RR-07)
    assert list(
        Seat.objects.filter(game=game).order_by("position").values_list("points", flat=True)
    ) == [1, 0]
    assert "Black lost on time" in html
    log = list(
        Turn.objects.filter(game=game).values_list(
            "number", "mover", "first_missed", "second_missed"
        )
    )
    assert log == [
        (1, 1, False, False),
        (2, 2, False, True),
        (3, 1, False, False),
        (4, 2, False, True),
    ]


def test_a_move_pair_both_missed_twice_is_a_double_forfeit(alternating):
    competition, game, white, black = alternating
    # Pair 1 (turns 1-2) both missed: double timeout 1; pair 2 both moved; pair 3 both missed.
    with time_machine.travel(START + 49 * H, tick=False):
        services.deadlines_process()
    turn = Turn.objects.get(game=game, closed_at__isnull=True)
    assert turn.number == 3 and turn.opened_at == START + 48 * H
    services.move_submit(entry=white, game_id=game.pk, turn=3, text="e4", now=START + 50 * H)
    services.move_submit(entry=black, game_id=game.pk, turn=4, text="e5", now=START + 51 * H)
    with time_machine.travel(START + 51 * H + 47 * H, tick=False):
        page = services.deadlines_process()
    assert page.finished == 0
    with time_machine.travel(START + 51 * H + 49 * H, tick=False):
        services.deadlines_process()
    detail = GameDetail.objects.get(game=game)
    assert detail.ending == Ending.DOUBLE_FORFEIT and not detail.rated
    assert detail.ended_at == START + 99 * H


def test_a_simultaneous_competition_is_unchanged(event):
    competition = started_duel(event, "sim").competition
    assert list(
        Turn.objects.filter(game__round__session__competition=competition).values_list(
            "mover", flat=True
        )
    ) == [None]
