"""The round robin's pages: public (live), desk (permissions, results, withdrawals), queries."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse

from events.models import Game, Seat
from roundrobin import services
from roundrobin.models import GameDetail, Withdrawal
from tests.support.roundrobin import (
    START,
    enter_players,
    game_between,
    make_competition,
    play,
    started_duel,
)

HTMX = {"HX-Request": "true"}


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


# --- public pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tables", "ratings"])
def test_public_pages_render_before_the_start(client, league, sixteen, name):
    response = client.get(url(name, league))
    assert response.status_code == 200


def test_the_tables_page_shows_crosstables_and_updates_as_a_fragment(client, started, sixteen):
    play(started, sixteen[0], sixteen[1])
    page = client.get(url("tables", started))
    html = page.content.decode()
    assert page.status_code == 200 and "<html" in html
    assert html.count('class="cross"') == 3
    assert sixteen[0].player.name in html and 'hx-trigger="every' in html
    fragment = client.get(url("tables", started), headers=HTMX)
    assert "<html" not in fragment.content.decode()
    assert 'id="tables-live"' in fragment.content.decode()
    again = client.get(url("tables", started), headers={**HTMX, "If-None-Match": fragment["ETag"]})
    assert again.status_code == 304
    play(started, sixteen[0], sixteen[2])
    changed = client.get(
        url("tables", started), headers={**HTMX, "If-None-Match": fragment["ETag"]}
    )
    assert changed.status_code == 200
    # The shared fragment cache is keyed on the version: the new result is there.
    assert changed.content.decode().count("<strong>2</strong>") == 1
    assert fragment.content.decode().count("<strong>2</strong>") == 0


def test_the_player_page_shows_games_and_rating_history(client, started, sixteen):
    play(started, sixteen[1], sixteen[0])
    response = client.get(url("player", started, sixteen[0].pk))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Rating history" in html and sixteen[1].player.name in html
    assert "in progress" in html and "0-1" in html or "1-0" in html
    fragment = client.get(url("player", started, sixteen[0].pk), headers=HTMX)
    assert "<html" not in fragment.content.decode()
    assert 'id="player-live"' in fragment.content.decode()


def test_the_ratings_page_shows_this_events_changes(client, started, sixteen):
    play(started, sixteen[1], sixteen[0])
    html = client.get(url("ratings", started)).content.decode()
    assert "+" in html and "2000" in html
    fragment = client.get(url("ratings", started), headers=HTMX).content.decode()
    assert "<html" not in fragment and 'id="ratings-live"' in fragment


def test_unknown_addresses_and_other_formats_are_404(client, started, competition, event):
    assert client.get(url("tables", competition)).status_code == 404  # a Blokus competition
    assert client.get(reverse("roundrobin:tables", args=[event.slug, "nope"])).status_code == 404
    assert client.get(url("player", started, 10**9)).status_code == 404
    other = make_competition(event, slug="other")
    stranger = enter_players(other, 2)[0]
    assert client.get(url("player", started, stranger.pk)).status_code == 404
    assert client.post(url("tables", started)).status_code == 405


def test_the_competition_page_links_the_tables(client, started):
    html = client.get(started.get_absolute_url()).content.decode()
    assert url("tables", started) in html and "3 tables" in html


# --- desk: permissions ----------------------------------------------------------------------------


def desk_urls(competition, game, entry):
    return [
        ("get", url("desk", competition)),
        ("get", url("desk_table", competition, 1)),
        ("get", url("withdraw", competition, entry.pk)),
        ("post", url("start", competition)),
        ("post", url("game_result", competition, game.pk)),
        ("post", url("withdraw", competition, entry.pk)),
    ]


def test_anonymous_users_are_sent_to_log_in(client, started, sixteen):
    game = Game.objects.filter(round__session__competition=started).first()
    for method, address in desk_urls(started, game, sixteen[0]):
        response = getattr(client, method)(address)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_other_organisers_get_403(client, outsider, started, sixteen):
    client.force_login(outsider)
    game = Game.objects.filter(round__session__competition=started).first()
    for method, address in desk_urls(started, game, sixteen[0]):
        assert getattr(client, method)(address, {"result": "1-0", "revision": 0}).status_code == 403
    assert not Withdrawal.objects.exists()
    assert not GameDetail.objects.exclude(ending="").exists()


def test_desk_pages_of_another_format_are_404(desk_client, competition):
    assert desk_client.get(url("desk", competition)).status_code == 404


# --- desk: start ----------------------------------------------------------------------------------


def test_the_desk_shows_the_draw_before_starting(desk_client, league, sixteen):
    html = desk_client.get(url("desk", league)).content.decode()
    assert "Start the competition" in html and html.count('class="card"') == 3
    assert desk_client.get(url("start", league)).status_code == 405
    response = desk_client.post(url("start", league))
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.status == "running"
    html = desk_client.get(url("desk", league)).content.decode()
    assert "Table 3" in html and "0 of 10 games over" in html
    # A second start is refused with a message.
    response = desk_client.post(url("start", league), follow=True)
    assert "already started" in response.content.decode()


def test_the_desk_explains_why_it_cannot_start(desk_client, league):
    enter_players(league, 1)
    html = desk_client.get(url("desk", league)).content.decode()
    assert "at least two players" in html and "Start the competition" not in html


# --- desk: results --------------------------------------------------------------------------------


def test_the_organiser_enters_a_result_in_place(desk_client, started, sixteen):
    game = game_between(sixteen[0], sixteen[1])
    response = desk_client.post(
        url("game_result", started, game.pk), {"result": "1/2-1/2", "revision": 0}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert "Result saved." in html and 'id="table-panel"' in html
    assert list(Seat.objects.filter(game=game).values_list("points", flat=True)) == [0.5, 0.5]


def test_a_plain_form_post_redirects_to_the_table(desk_client, started, sixteen):
    game = game_between(sixteen[0], sixteen[1])
    response = desk_client.post(
        url("game_result", started, game.pk), {"result": "1-0", "revision": 0}
    )
    assert response.status_code == 302
    assert response["Location"] == url("desk_table", started, 1) + f"#game-{game.pk}"


def test_a_stale_form_is_refused_with_the_current_result(desk_client, started, sixteen):
    game = game_between(sixteen[0], sixteen[1])
    services.game_result_record(competition=started, game_id=game.pk, result="0-1", revision=0)
    response = desk_client.post(
        url("game_result", started, game.pk), {"result": "1-0", "revision": 0}, headers=HTMX
    )
    html = response.content.decode()
    assert "Someone else changed this game" in html and "0-1" in html
    assert Seat.objects.get(game=game, position=1).points == 0


@pytest.mark.parametrize(
    "data",
    [
        {"result": "2-0", "revision": 0},
        {"result": "1-0", "revision": "x"},
        {"result": "1-0", "revision": -1},
        {"result": "1-0", "revision": 10**30},
        {"result": "1-0"},
        {"revision": 0},
        {},
    ],
)
def test_hostile_result_input_is_refused(desk_client, started, sixteen, data):
    game = game_between(sixteen[0], sixteen[1])
    response = desk_client.post(url("game_result", started, game.pk), data, headers=HTMX)
    assert response.status_code == 200
    assert 'class="msg error"' in response.content.decode()
    assert not GameDetail.objects.exclude(ending="").exists()


def test_a_game_of_another_competition_is_404(desk_client, started, event, sixteen):
    game = started_duel(event, "other").game
    response = desk_client.post(
        url("game_result", started, game.pk), {"result": "1-0", "revision": 0}
    )
    assert response.status_code == 404
    assert desk_client.get(url("desk_table", started, 9)).status_code == 404
    assert not GameDetail.objects.exclude(ending="").exists()


def test_the_table_page_renders_as_page_and_fragment(desk_client, started, sixteen):
    page = desk_client.get(url("desk_table", started, 1)).content.decode()
    assert "<html" in page and "Games in progress" in page and "Withdraw…" in page
    fragment = desk_client.get(url("desk_table", started, 1), headers=HTMX).content.decode()
    assert "<html" not in fragment and 'id="table-panel"' in fragment


# --- desk: withdrawal -----------------------------------------------------------------------------


def test_a_withdrawal_is_shown_first_and_applied_on_confirmation(desk_client, started, sixteen):
    w = sixteen[15]  # table 3
    play(started, sixteen[11], w)
    with time_machine.travel(START + dt.timedelta(hours=2), tick=False):
        preview = desk_client.get(url("withdraw", started, w.pk)).content.decode()
        assert "fewer than half" in preview and preview.count("struck") >= 4
        assert not Withdrawal.objects.exists()
        response = desk_client.post(
            url("withdraw", started, w.pk), {"expected": signature(preview)}
        )
    assert response.status_code == 302 and response["Location"] == url("desk_table", started, 3)
    assert Withdrawal.objects.get(entry=w).effect == "strike"
    html = desk_client.get(url("withdraw", started, w.pk)).content.decode()
    assert "Already withdrawn" in html
    response = desk_client.post(url("withdraw", started, w.pk), follow=True)
    assert "already withdrawn" in response.content.decode()


def signature(html: str) -> str:
    return re.search(r'name="expected" value="([^"]*)"', html).group(1)


def test_a_withdrawal_is_refused_when_the_situation_changed_since_the_preview(
    desk_client, started, sixteen
):
    w = sixteen[15]  # table 3: 5 players, 4 games each
    address = url("withdraw", started, w.pk)
    with time_machine.travel(START + dt.timedelta(hours=2), tick=False):
        play(started, sixteen[11], w)
        seen = signature(desk_client.get(address).content.decode())  # 1 of 4: struck
        play(started, sixteen[12], w)  # meanwhile: 2 of 4, the results would stand
        response = desk_client.post(address, {"expected": seen}, follow=True)
        html = response.content.decode()
        assert response.redirect_chain[-1][0] == address
        assert "situation changed" in html and "at least half" in html
        assert not Withdrawal.objects.exists()
        assert desk_client.post(address).status_code == 302  # no preview seen: refused too
        assert not Withdrawal.objects.exists()
        desk_client.post(address, {"expected": signature(html)})
    assert Withdrawal.objects.get(entry=w).effect == "forfeit"


def test_withdrawing_someone_of_another_competition_is_404(desk_client, started, event):
    other = make_competition(event, slug="other")
    stranger = enter_players(other, 2)[0]
    assert desk_client.post(url("withdraw", started, stranger.pk)).status_code == 404
    assert desk_client.get(url("withdraw", started, "123456")).status_code == 404


# --- query counts ---------------------------------------------------------------------------------


def started_with(event, slug, players):
    competition = make_competition(event, slug=slug)
    entries = enter_players(competition, players)
    services.competition_start(competition=competition, seed=7, now=START)
    # Some results, a tiebreak-free withdrawal: every kind of cell on the page.
    play(competition, entries[0], entries[1])
    play(competition, entries[1], entries[2], draw=True)
    services.entry_withdraw(entry=entries[-1])
    competition.refresh_from_db()
    competition.event  # noqa: B018 (load it now: the tests build URLs from it)
    return competition, entries


@pytest.mark.parametrize("players", [8, 40])
def test_public_pages_take_constant_queries(client, event, django_assert_max_num_queries, players):
    competition, entries = started_with(event, f"q{players}", players)
    # the event's language (first visit only: events.language), ETag version, competition,
    # games, seats, entries
    with django_assert_max_num_queries(6):
        assert client.get(url("tables", competition)).status_code == 200
    # ETag, competition, entry, games, seats, entries, rating history, corrections
    with django_assert_max_num_queries(8):
        assert client.get(url("player", competition, entries[1].pk)).status_code == 200
    # ETag, competition, change totals, snapshots
    with django_assert_max_num_queries(4):
        assert client.get(url("ratings", competition)).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(competition.get_absolute_url()).status_code == 200


@pytest.mark.parametrize("players", [3, 7])
def test_desk_table_takes_constant_queries(
    desk_client, event, django_assert_max_num_queries, players
):
    competition, _ = started_with(event, f"d{players}", players)
    # session, user, competition, organiser check, games, seats, entries, turns, reports,
    # corrections
    with django_assert_max_num_queries(10):
        assert desk_client.get(url("desk_table", competition, 1)).status_code == 200
    with django_assert_max_num_queries(7):
        assert desk_client.get(url("desk", competition)).status_code == 200


def test_struck_games_are_shown_struck_in_the_crosstable(client, started, sixteen):
    w = sixteen[15]
    play(started, sixteen[11], w)
    services.entry_withdraw(entry=w, now=START + dt.timedelta(hours=2))
    html = client.get(url("tables", started)).content.decode()
    assert "<s>1</s>" in html and "<s>0</s>" in html and "<s>–</s>" in html


HUGE = 99999999999999999999999


@pytest.mark.parametrize(
    ("name", "method", "status"),
    [
        ("desk_table", "get", 404),
        ("desk_table", "post", 405),
        ("game_result", "post", 404),
        ("withdraw", "get", 404),
        ("withdraw", "post", 404),
    ],
)
def test_numbers_out_of_range_on_the_desk_are_404(desk_client, started, name, method, status):
    assert getattr(desk_client, method)(url(name, started, HUGE)).status_code == status
    assert desk_client.get(url("desk_table", started, 0)).status_code == 404
    assert desk_client.get(url("desk_table", started, 32768)).status_code == 404


def test_a_huge_player_number_on_the_public_page_is_404(client, started):
    assert client.get(url("player", started, HUGE)).status_code == 404


def test_a_players_desk_history_credits_rating_moves_to_rated_games_not_to_the_next_edit(
    desk_client, started, sixteen
):
    from events.models import Player
    from events.services import editing

    loser = sixteen[0]
    before = Player.objects.get(pk=loser.player_id)
    play(started, sixteen[1], loser)
    after = Player.objects.get(pk=loser.player_id)
    assert after.rating < before.rating
    page = reverse("events:player_edit", args=[started.event.slug, loser.player_id])
    form = desk_client.get(page).content.decode()
    signature = re.search(r'name="signature" value="([^"]+)"', form).group(1)
    response = desk_client.post(
        page,
        {
            "signature": signature,
            "name": "Renamed Player",
            "club": after.club,
            "email": after.email,
            "rating": after.rating,
            "language": after.language,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    rows = editing.history_of(Player.objects.get(pk=loser.player_id), editing.PLAYER_FIELDS)
    edit, rated = rows[0], rows[1]
    assert edit.who == "alice" and not edit.rated
    assert {c.field for c in edit.changes} == {"name"}
    assert rated.rated and rated.who == ""
    assert [(c.old, c.new) for c in rated.changes] == [(before.rating, after.rating)]
    html = desk_client.get(page).content.decode()
    history = html[html.index('id="history-heading"') :]
    assert "rated games" in history and "Renamed Player" in history
