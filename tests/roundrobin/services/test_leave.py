"""Leave days: the service, the clock's respect for it, the private page and the desk."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from events.errors import Invalid, Refused
from roundrobin import services
from roundrobin.models import Leave, Turn
from roundrobin.services.leave import leave_take
from tests.support.roundrobin import START, open_turn, private, started_duel


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


@pytest.fixture
def duel(event):
    return started_duel(event, leave_days=10)


H = dt.timedelta(hours=1)
DAY = 24 * H


def test_a_leave_moves_the_open_turns_deadline_and_the_sweep_respects_it(duel):
    competition, game, white, _black = duel
    leave_take(entry=white, start=START + 2 * H, days=2, now=START + 2 * H)
    assert open_turn(game).deadline == START + 24 * H + 2 * DAY
    with time_machine.travel(START + 30 * H, tick=False):
        assert services.deadlines_process().closed == 0
    assert open_turn(game).number == 1
    with time_machine.travel(START + 73 * H, tick=False):
        assert services.deadlines_process().closed == 1
    turn = open_turn(game)
    assert (turn.number, turn.opened_at, turn.deadline) == (2, START + 72 * H, START + 96 * H)


def test_turns_opening_during_a_leave_start_running_at_its_end(duel):
    competition, game, white, black = duel
    leave_take(entry=white, start=START + 3 * H, days=1, now=START + H)  # 3 h .. 27 h
    assert open_turn(game).deadline == START + 48 * H
    for entry in (white, black):
        services.move_submit(entry=entry, game_id=game.pk, turn=1, text="e4", now=START + 5 * H)
    # turn 2 opened at 5 h, inside the leave: 22 h of it fall in the turn
    assert open_turn(game).deadline == START + 51 * H
    # the opponent's later leave, after turn 2's deadline: the sweep opens turn 3 across it
    leave_take(entry=black, start=START + 60 * H, days=1, now=START + 40 * H)
    services.move_submit(entry=white, game_id=game.pk, turn=2, text="d4", now=START + 41 * H)
    assert open_turn(game).deadline == START + 51 * H
    with time_machine.travel(START + 52 * H, tick=False):
        services.deadlines_process()
    turn = open_turn(game)
    assert (turn.number, turn.opened_at, turn.deadline) == (3, START + 51 * H, START + 99 * H)


def test_a_leave_does_not_rescue_a_turn_already_expired(duel):
    competition, game, white, _black = duel
    leave_take(entry=white, start=START + 25 * H, days=1, now=START + 25 * H)
    first = Turn.objects.get(game=game, number=1)
    assert first.closed_at == START + 24 * H  # closed at its deadline, before the leave
    assert open_turn(game).deadline == START + 24 * H + 2 * DAY  # turn 2 waits out the leave


def test_over_budget_overlapping_and_switched_off_leave_is_refused(duel, event):
    competition, game, white, black = duel
    leave_take(entry=white, start=START + H, days=4, now=START + H)
    with pytest.raises(Invalid, match="overlaps or touches"):
        leave_take(entry=white, start=START + 2 * DAY, days=1, now=START + 2 * H)
    with pytest.raises(Invalid, match="Only 6 leave days are left of 10; you asked for 7"):
        leave_take(entry=white, start=START + 10 * DAY, days=7, now=START + 2 * H)
    with pytest.raises(Invalid, match="cannot start in the past"):
        leave_take(entry=black, start=START, days=1, now=START + 2 * H)
    off = started_duel(event, "off").competition
    entry = off.entries.first()
    with pytest.raises(Invalid, match="no leave days"):
        leave_take(entry=entry, start=START + H, days=1, now=START + H)
    assert Leave.objects.count() == 1


def test_a_withdrawn_player_takes_no_leave(duel):
    competition, game, white, _black = duel
    services.entry_withdraw(entry=white, now=START + H)
    with pytest.raises(Refused):
        leave_take(entry=white, start=START + 2 * H, days=1, now=START + 2 * H)


def test_a_player_announces_leave_on_the_private_page_and_the_desk_sees_it(
    client, desk_client, duel, django_assert_max_num_queries
):
    competition, game, white, black = duel
    with time_machine.travel(START + 2 * H, tick=False):
        page = private(client, white)
        html = client.get(page).content.decode()
        assert "10 days of leave left (of 10)" in html
        assert (
            client.post(page, {"leave_start": "2026-03-01", "leave_days": "3"}).status_code == 303
        )
        html = client.get(page).content.decode()
        assert "Leave recorded: your deadlines move on by it." in html
        assert "7 days of leave left (of 10)" in html
        client.post(page, {"leave_start": "2026-03-02", "leave_days": "2"})
        assert "overlaps or touches another one" in client.get(page).content.decode()
        client.post(page, {"leave_start": "2026-03-20", "leave_days": "x"})
        assert "Enter a whole number." in client.get(page).content.decode()
        assert open_turn(game).deadline == START + 24 * H + 3 * DAY
        # the desk enters one for the opponent and lists both
        answer = desk_client.post(
            url("desk_leave", competition, 1),
            {"entry": black.pk, "start": "2026-03-10", "days": "2"},
            follow=True,
        )
        html = answer.content.decode()
        assert f"Leave recorded for {black.player.name}." in html
        assert "7 of 10 days left" in html and "8 of 10 days left" in html
        with django_assert_max_num_queries(15):
            desk_client.get(url("desk_table", competition, 1))
        over = desk_client.post(
            url("desk_leave", competition, 1),
            {"entry": black.pk, "start": "2026-04-10", "days": "9"},
            follow=True,
        )
        assert "Only 8 leave days are left of 10; you asked for 9." in over.content.decode()
    assert Leave.objects.filter(by_desk=True).count() == 1


def test_private_page_and_desk_say_nothing_of_leave_while_it_is_off(client, desk_client, event):
    duel = started_duel(event, "plain")
    competition, (white, _black) = duel.competition, duel.entries
    with time_machine.travel(START + H, tick=False):
        assert "Announce leave" not in client.get(private(client, white)).content.decode()
        html = desk_client.get(url("desk_table", competition, 1)).content.decode()
    assert "Record leave" not in html


def test_the_desk_form_refuses_bad_input_with_a_sentence(desk_client, duel):
    competition = duel[0]
    address = url("desk_leave", competition, 1)
    with time_machine.travel(START + H, tick=False):
        for posted in ({"start": "2026-03-02", "days": "2"}, {"start": "x", "days": "1"}):
            answer = desk_client.post(address, posted, follow=True)
            assert answer.status_code == 200 and 'class="msg error"' in answer.content.decode()
    assert not Leave.objects.exists()
