"""The Blokus rule options end to end, through the desk's and the players' pages: the
official bonus, a drop-out who comes back, a tied final replayed, three-handed tables."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from blokus import selectors, services
from blokus.models import SessionPlayer
from events.models import Competition, Game, Round, Seat, Session
from tests.support.blokus import (
    post_result,
    qualified,
    record,
    register,
    result_data,
    seated_round,
    url,
)
from tests.support.factories import CompetitionFactory

SETTINGS = {
    "qualifying_sessions": 1,
    "capacity": 12,
    "rounds_per_session": 1,
    "round_minutes": 15,
    "official_bonus": False,
}


def blokus(event, slug="options", **settings) -> Competition:
    competition = CompetitionFactory(event=event, slug=slug, settings={**SETTINGS, **settings})
    services.sessions_set_up(
        competition=competition, roll_calls=[None] * competition.options.qualifying_sessions
    )
    return competition


def by_position(game) -> list[Seat]:
    return list(game.seats.order_by("position").select_related("entry__player"))


# --- 1. official scoring, chosen on the settings page -------------------------------------------


def test_the_official_bonus_chosen_in_the_settings_scores_the_tables(desk_client, event):
    competition = blokus(event)
    settings_url = reverse(
        "events:competition_settings", args=[competition.event.slug, competition.slug]
    )
    form = desk_client.get(competition.get_desk_url()).content.decode()
    assert 'name="official_bonus"' in form and 'name="final_replays"' in form
    assert 'name="three_handed_after_dropout"' in form
    response = desk_client.post(settings_url, {**SETTINGS, "official_bonus": "on"})
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.options.official_bonus and competition.options.final_replays == 0
    session = competition.sessions.get()
    register(competition, session, 4)
    assert desk_client.post(url("session_seat", competition, 1)).status_code == 302
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    game = Game.objects.get(round__session=session)
    preview = desk_client.post(
        url("game_preview", competition, game.pk), result_data(game, [0, 0, 3, 10], [0])
    ).content.decode()
    assert "+20" in preview and "+15" in preview
    post_result(desk_client, competition, game, [0, 0, 3, 10], monomino=[0])
    assert [s.score for s in by_position(game)] == [20, 15, -3, -10]
    page = desk_client.get(url("session", competition, 1)).content.decode()
    assert "+20" in page and "+15" in page
    overview = desk_client.get(url("overview", competition)).content.decode()
    assert "+20 with the monomino last (official)" in overview


def test_the_seed_scoring_stays_the_default(client, event):
    competition = blokus(event)
    assert competition.options.official_bonus is False
    overview = client.get(url("overview", competition)).content.decode()
    assert "+5 for all pieces placed with the monomino last" in overview


# --- 2. a player who dropped out comes back -----------------------------------------------------


def entry_action(desk_client, entry, action):
    response = desk_client.post(reverse("events:entry_action", args=[entry.pk, action]))
    assert response.status_code == 302


def test_a_withdrawn_player_reinstated_at_the_desk_plays_again_from_the_next_round(
    desk_client, client, event
):
    competition = blokus(event, rounds_per_session=3)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.all():
        record(game, [0, 1, 2, 3])
    gone = SessionPlayer.objects.filter(session=session, role="seated").first()
    entry_action(desk_client, gone.entry, "withdraw")
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    second = Round.objects.get(session=session, number=2)
    mine = Seat.objects.get(game__round=second, entry=gone.entry).game
    # out in round 2: the desk's form takes only 89 squares for them
    squares = [89 if s.entry_id == gone.entry_id else 4 for s in by_position(mine)]
    post_result(desk_client, competition, mine, squares)
    for game in second.games.exclude(pk=mine.pk):
        record(game, [0, 1, 2, 3])
    gone.refresh_from_db()
    assert gone.dropped_after_round == 1 and gone.dropped_by_withdrawal
    entry_action(desk_client, gone.entry, "reinstate")
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    gone.refresh_from_db()
    assert (gone.dropped_after_round, gone.back_from_round) == (1, 3)
    assert not gone.has_dropped_out
    # round 2 stays as recorded: last at the table, no points
    seat = Seat.objects.get(game__round=second, entry=gone.entry)
    assert seat.score == -89 and seat.points == 0
    # round 3: playing again; an ordinary hand is taken
    third = Seat.objects.get(game__round__session=session, game__round__number=3, entry=gone.entry)
    post_result(desk_client, competition, third.game, [0, 1, 2, 3])
    seat = Seat.objects.get(pk=third.pk)
    assert seat.points > 0 or seat.position == 4
    page = client.get(url("session", competition, 1)).content.decode()
    seats = [
        line
        for line in page.splitlines()
        if f'data-player="{gone.entry_id}"' in line and '<tr class="' in line
    ]
    assert len(seats) == 3 and sum('class="dropped' in line for line in seats) == 1
    desk = desk_client.get(url("desk_session", competition, 1)).content.decode()
    assert "back from round 3" in desk


def test_the_session_desk_brings_a_player_back_from_the_next_round(desk_client, event):
    competition = blokus(event, rounds_per_session=3)
    session = competition.sessions.get()
    seated_round(competition, session, 8)
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()

    def act(action):
        address = url("session_player_action", competition, 1, sp.pk, action)
        assert desk_client.post(address).status_code == 302
        sp.refresh_from_db()

    act("drop_out")
    assert sp.dropped_after_round == 1
    act("come_back")  # no round drawn while out: the drop-out is simply undone
    assert sp.dropped_after_round is None and sp.back_from_round is None
    act("drop_out")
    for game in Round.objects.get(session=session, number=1).games.all():
        record(game, [0, 1, 2, 3])
    services.round_draw(session=session, seed=2)
    for game in Round.objects.get(session=session, number=2).games.all():
        squares = [89 if s.entry_id == sp.entry_id else 5 for s in by_position(game)]
        record(game, squares)
    act("come_back")
    assert (sp.dropped_after_round, sp.back_from_round) == (1, 3)
    assert not sp.has_dropped_out
    # a second click finds them playing: refused with a message, nothing changes
    response = desk_client.post(url("session_player_action", competition, 1, sp.pk, "come_back"))
    assert response.status_code == 302
    sp.refresh_from_db()
    assert sp.back_from_round == 3


# --- 3. a tied final replayed -------------------------------------------------------------------


def test_a_tied_final_is_replayed_by_the_tied_players(
    desk_client, client, event, django_assert_max_num_queries
):
    competition, final = qualified(event, final_replays=1)
    seats = by_position(final)
    post_result(desk_client, competition, final, [3, 3, 5, 7])  # positions 1 and 2 tie
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    replay = Game.objects.get(round__session__kind=Session.Kind.FINAL, round__number=2)
    assert {s.entry_id for s in replay.seats.all()} == {seats[0].entry_id, seats[1].entry_id}
    assert sorted(s.colour for s in replay.seats.all()) == ["blue", "yellow"]
    overview = client.get(url("overview", competition)).content.decode()
    assert 'id="final-replay-open"' in overview and "Replay 1" in overview
    desk = desk_client.get(url("desk", competition)).content.decode()
    assert url("game_result", competition, replay.pk) in desk
    replay_seats = by_position(replay)
    loser = replay_seats[0]
    post_result(desk_client, competition, replay, [9, 2])  # the second seat wins the replay
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    phone = Client()  # ``client`` is ``desk_client``, logged in: a phone is not
    with django_assert_max_num_queries(10):  # as without replays (tests/blokus/views/test_views.py)
        overview = phone.get(url("overview", competition)).content.decode()
    assert 'id="final-replay-1"' in overview and "up to 1 time" in overview
    result = overview[overview.index('id="final-result"') :]
    winner = replay_seats[1].entry.player.name
    assert result.index(winner) < result.index(loser.entry.player.name)
    # The player's page names their place in the final.
    page = client.get(url("player", competition, replay_seats[1].entry_id)).content.decode()
    assert "Winner of the final" in page
    page = client.get(url("player", competition, loser.entry_id)).content.decode()
    assert "Place 2 in the final" in page


def test_a_replay_tied_again_goes_to_the_better_qualifier_when_no_replay_is_left(
    desk_client, client, event
):
    competition, final = qualified(event, final_replays=1)
    post_result(desk_client, competition, final, [0, 0, 0, 9])  # three tie
    replay = Game.objects.get(round__session__kind=Session.Kind.FINAL, round__number=2)
    assert replay.seats.count() == 3
    post_result(desk_client, competition, replay, [4, 4, 6])
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert not Round.objects.filter(session__kind=Session.Kind.FINAL, number=3).exists()
    qualification = selectors.qualification_rows(competition)
    order = [row.entry.pk for row in qualification]
    tied = sorted((s.entry_id for s in by_position(replay)[:2]), key=order.index)
    view = selectors.final_view(competition, qualification)
    assert [s.entry.pk for _, s in view.placed][:2] == tied  # the better qualifier first
    page = client.get(url("overview", competition)).content.decode()
    assert 'id="final-replay-1"' in page and 'id="final-replay-2"' not in page


def test_without_replays_a_tied_final_finishes_at_once(desk_client, event):
    competition, final = qualified(event)
    post_result(desk_client, competition, final, [3, 3, 5, 7])
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert Round.objects.filter(session__kind=Session.Kind.FINAL).count() == 1


def test_a_correction_of_the_final_redraws_an_unplayed_replay_and_refuses_a_played_one(
    desk_client, event
):
    competition, final = qualified(event, final_replays=2)
    post_result(desk_client, competition, final, [3, 3, 5, 7])
    final.refresh_from_db()
    # the tie was a typing error: the unplayed replay goes, the final is finished
    post_result(desk_client, competition, final, [3, 4, 5, 7])
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert Round.objects.filter(session__kind=Session.Kind.FINAL).count() == 1
    post_result(desk_client, competition, final, [3, 3, 5, 7])
    replay = Game.objects.get(round__session__kind=Session.Kind.FINAL, round__number=2)
    post_result(desk_client, competition, replay, [1, 2])
    final.refresh_from_db()
    response = desk_client.post(
        url("game_result", competition, final.pk), result_data(final, [3, 4, 5, 7])
    )
    assert response.status_code == 400
    assert "replay_played" in {e.code for e in response.context["form"].non_field_errors().data}


# --- 4. three-handed tables after a drop-out ----------------------------------------------------


def test_after_a_drop_out_the_rest_play_three_handed_when_the_option_is_on(
    desk_client, client, event
):
    competition = blokus(event, rounds_per_session=2, three_handed_after_dropout=True)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.all():
        record(game, [0, 1, 2, 3])
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()
    address = url("session_player_action", competition, 1, sp.pk, "drop_out")
    assert desk_client.post(address).status_code == 302
    assert desk_client.post(url("round_draw", competition, 1)).status_code == 302
    second = Round.objects.get(session=session, number=2)
    sizes = [g.seats.count() for g in second.games.order_by("number")]
    assert sizes == [4, 3]
    assert not Seat.objects.filter(game__round=second, entry=sp.entry).exists()
    three = second.games.get(number=2)
    assert sorted(s.colour for s in three.seats.all()) == ["blue", "red", "yellow"]
    post_result(desk_client, competition, three, [0, 4, 4])
    assert [s.points for s in by_position(three)] == [2, pytest.approx(0.5), pytest.approx(0.5)]
    page = client.get(url("session", competition, 1)).content.decode()
    assert "needs attention" not in page


def test_without_the_option_a_drop_out_stays_at_a_full_table(desk_client, event):
    competition = blokus(event, rounds_per_session=2)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.all():
        record(game, [0, 1, 2, 3])
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()
    services.session_drop_out(session_player=sp)
    second = services.round_draw(session=session, seed=2)
    assert [g.seats.count() for g in second.games.all()] == [4, 4]
