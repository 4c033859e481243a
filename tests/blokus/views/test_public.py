from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from blokus import selectors, services
from events import services as event_services
from events.models import Competition, Game, Round, Session
from tests.support.blokus import (
    FULL,
    HTMX,
    SHORT,
    T,
    big_tournament,
    by_position,
    play_round,
    play_won_by,
    post_result,
    qualified,
    register,
    seated,
    shows_short,
    url,
    with_options,
)
from tests.support.factories import CompetitionFactory, EntryFactory


def test_the_public_pages_render_as_page_and_fragment(client, competition, drawn):
    first = Game.objects.filter(round__session=drawn).first()
    entry = first.seats.first().entry
    for address, marker in [
        (url("overview", competition), 'id="overview-live"'),
        (url("session", competition, 1), 'id="session-live"'),
        (url("player", competition, entry.pk), 'id="player-live"'),
    ]:
        page = client.get(address)
        assert page.status_code == 200
        assert "<html" in page.content.decode() and marker in page.content.decode()
        fragment = client.get(address, headers=HTMX).content.decode()
        assert "<html" not in fragment and marker in fragment
    html = client.get(url("session", competition, 1)).content.decode()
    assert "Table 3" in html and entry.player.name in html and "c-blue" in html


def test_the_session_page_shows_the_roll_call_before_seating(client, competition, sessions):
    register(competition, sessions[1], 3, check_in=2)
    html = client.get(url("session", competition, 2)).content.decode()
    assert "3 registered, 2 checked in" in html


def test_the_clock_counts_from_the_servers_start(client, competition, drawn):
    assert "blokus-clock" not in client.get(url("clock", competition)).content.decode()
    round_ = drawn.rounds.get()
    services.round_start_clock(round=round_)
    response = client.get(url("clock", competition))
    html = response.content.decode()
    assert 'data-remaining="900"' in html or 'data-remaining="899"' in html
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert "blokus-clock" in client.get(url("session", competition, 1)).content.decode()
    # The shared competition page's panel loads the clock itself (hx-trigger "load").
    shared = client.get(competition.get_absolute_url()).content.decode()
    assert f'hx-get="{url("clock", competition)}"' in shared and 'hx-trigger="load,' in shared


def test_an_expired_clock_says_to_finish_the_cycle(client, competition, drawn, time_machine):
    import datetime as dt

    from django.utils import timezone

    round_ = drawn.rounds.get()
    services.round_start_clock(round=round_, now=timezone.now() - dt.timedelta(minutes=16))
    html = client.get(url("clock", competition)).content.decode()
    assert "expired" in html and "through green" in html


def test_unknown_addresses_and_other_formats_are_404(client, competition, drawn):
    assert client.get(url("session", competition, 9)).status_code == 404
    assert client.get(url("player", competition, 99999)).status_code == 404
    other = CompetitionFactory(event=competition.event, format="shuffleboard", settings={})
    assert client.get(url("overview", other)).status_code == 404
    stranger = EntryFactory()
    assert client.get(url("player", competition, stranger.pk)).status_code == 404


def test_public_pages_answer_304_until_a_result_changes(client, competition, drawn):
    address = url("session", competition, 1)
    etag = client.get(address, headers=HTMX)["ETag"]
    assert client.get(address, headers={**HTMX, "If-None-Match": etag}).status_code == 304
    play_round(drawn.rounds.get(), random.Random(1))
    assert client.get(address, headers={**HTMX, "If-None-Match": etag}).status_code == 200


@pytest.mark.parametrize("size", [8, 40])
def test_standings_and_tables_take_constant_queries(
    client, competition, sessions, size, django_assert_max_num_queries
):
    big_tournament(competition, sessions, size)
    entry = seated(sessions[0])[0].entry
    # session page: etag version, competition, players, rounds, games, seats (with hands),
    # clock round, the charts' seats and drop-outs (+1 on the event's first page: its language,
    # then cached; events/language.py)
    with django_assert_max_num_queries(12):
        assert client.get(url("session", competition, 1)).status_code == 200
    # overview: etag, competition, lot, qualifiers, seats, sessions(+2 prefetches), final
    with django_assert_max_num_queries(10):
        assert client.get(url("overview", competition)).status_code == 200
    # player: + its corrections, its rating steps, the charts' seats and drop-outs
    with django_assert_max_num_queries(12):
        assert client.get(url("player", competition, entry.pk)).status_code == 200


def test_a_live_fragment_is_rendered_once_per_version(
    client, competition, drawn, django_assert_max_num_queries
):
    address = url("session", competition, 1)
    first = client.get(address, headers=HTMX)
    assert first.status_code == 200 and "<html" not in first.content.decode()
    # Another phone's poll: the ETag's version and the competition, then the shared fragment.
    with django_assert_max_num_queries(2):
        again = client.get(address, headers=HTMX)
    assert again.content == first.content
    services.round_start_clock(round=drawn.rounds.get())  # a write: a new version
    changed = client.get(address, headers=HTMX)
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def _public(address: str, *, htmx: bool = False) -> str:
    """The page as an anonymous visitor gets it (a client of its own: ``client`` is the one
    ``desk_client`` signs in)."""
    response = Client().get(address, headers=HTMX if htmx else None)
    assert response.status_code == 200, address
    return response.content.decode()


def test_every_public_page_shows_the_public_name(short_named):
    competition, session, entry, game = short_named
    tablemate = game.seats.exclude(entry=entry).first().entry
    pages = {
        "competition": competition.get_absolute_url(),
        "overview": url("overview", competition),
        "session": url("session", competition, session.number),
        "player": url("player", competition, entry.pk),
        "tablemate": url("player", competition, tablemate.pk),
        "screen": url("screen", competition),
        "propose": url("propose", competition, game.pk),
    }
    for where, address in pages.items():
        shows_short(_public(address), where)
    for where in ("overview", "session", "player", "tablemate", "screen"):  # the polled parts
        shows_short(_public(pages[where], htmx=True), f"{where} (fragment)")
    player_page = _public(pages["player"])
    assert f"<h1>{SHORT}" in player_page and f"<title>{SHORT} ·" in player_page


def test_the_final_shows_the_public_name_in_public_and_the_full_name_at_the_desk(
    short_named, desk_client
):
    competition, session, entry, game = short_named
    game.refresh_from_db()
    play_won_by(game.round, entry.pk)  # the desk enters round 2 as well: Åsa is first
    final = services.final_seat(competition=competition, seed=1, lot_seed=1)
    assert Game.objects.filter(round__session=final, seats__entry=entry).exists()
    shows_short(_public(url("overview", competition)), "overview with the final")
    assert FULL in desk_client.get(url("desk", competition)).content.decode()


def test_the_seed_scoring_stays_the_default(client, event):
    competition = with_options(event)
    assert competition.options.official_bonus is False
    overview = client.get(url("overview", competition)).content.decode()
    assert "+5 for all pieces placed with the monomino last" in overview


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
    with django_assert_max_num_queries(
        10
    ):  # as without replays (tests/blokus/views/test_public.py)
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


def test_a_withdrawn_players_page_is_shown(client, eight_played):
    competition, _session, a, _b = eight_played
    entry = competition.entries.get(pk=a[3])
    event_services.entry_withdraw(entry=entry)
    response = client.get(url("player", competition, entry.pk))
    assert response.status_code == 200 and "withdrawn" in response.content.decode()


def test_the_clock_stays_while_time_is_left_after_the_last_result(client, competition, round_):
    services.round_start_clock(round=round_)  # now: the clock has 15 minutes
    play_round(round_, random.Random(3))
    html = client.get(url("clock", competition)).content.decode()
    assert "blokus-clock" in html and "data-remaining-ms" in html


def test_a_paused_clock_says_so_and_does_not_tick(client, competition, round_):
    services.round_start_clock(round=round_)
    services.clock_pause(round=round_)
    html = client.get(url("clock", competition)).content.decode()
    assert "data-paused" in html and ">paused<" in html and " paused" in html


def test_the_clock_goes_when_its_time_is_up_and_every_result_is_in(client, competition, round_):
    services.round_start_clock(round=round_, now=T)  # long ago
    assert "expired" in client.get(url("clock", competition)).content.decode()
    play_round(round_, random.Random(3))
    assert "blokus-clock" not in client.get(url("clock", competition)).content.decode()


def test_the_clock_fragment_reads_with_a_constant_number_of_queries(
    client, competition, seated_session, django_assert_max_num_queries
):
    round_ = services.round_draw(session=seated_session, seed=1)
    services.round_start_clock(round=round_)
    with django_assert_max_num_queries(3):  # competition, the clock's round, (options)
        assert "blokus-clock" in client.get(url("clock", competition)).content.decode()
    play_round(round_, random.Random(3))
    second = services.round_draw(session=seated_session, seed=2)
    services.round_start_clock(round=second)
    services.clock_pause(round=second)
    with django_assert_max_num_queries(3):
        assert "data-paused" in client.get(url("clock", competition)).content.decode()


def test_the_alarm_is_off_unless_the_address_asks(client, competition, round_):
    services.round_start_clock(round=round_)
    page = reverse("blokus:session", args=[competition.event.slug, competition.slug, 1])
    assert "data-alarm" not in client.get(page).content.decode()
    assert 'data-alarm="flash"' in client.get(page + "?alarm=flash").content.decode()
    assert 'data-alarm="sound"' in client.get(page + "?alarm=sound").content.decode()
    assert "data-alarm" not in client.get(page + "?alarm=<script>").content.decode()
