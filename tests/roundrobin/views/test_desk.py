"""Tests of roundrobin/views/desk.py: the organiser's pages of a round robin."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.test import override_settings
from django.urls import reverse

from events.errors import Refused
from events.models import Correction, Game, Seat
from events.permissions import MANAGE, SCOREKEEPER
from events.services import correction_undo
from roundrobin import rules, services
from roundrobin.models import GameDetail, Withdrawal
from roundrobin.services.adjudication import table_adjudicate
from tests.support.desk_urls import declared_access
from tests.support.factories import EntryFactory
from tests.support.print_items import links_of, pdf_of
from tests.support.printing import text_of
from tests.support.roundrobin import (
    FULL,
    HUGE,
    SHORT,
    START,
    enter_players,
    game_between,
    make_competition,
    page,
    play,
    points,
    started_duel,
)

VENUE = "http://192.168.1.20:8000"


HTMX = {"HX-Request": "true"}


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


def test_a_player_without_a_table_gets_a_sentence_not_a_404(desk_client, duel):
    competition, *_ = duel
    stray = EntryFactory(competition=competition)  # old data: in the register, no table
    page = desk_client.get(url("withdraw", competition, stray.pk))
    html = page.content.decode()
    assert page.status_code == 200 and "has no table in this competition" in html
    done = desk_client.post(url("withdraw", competition, stray.pk), follow=True)
    assert "is off the register" in done.content.decode()
    stray.refresh_from_db()
    assert stray.withdrawn_at is not None
    again = desk_client.get(url("withdraw", competition, stray.pk)).content.decode()
    assert "Already off the register." in again


def test_the_desk_shows_old_and_new_before_replacing(desk_client, duel):
    competition, game, white, black = duel
    services.game_result_record(competition=competition, game_id=game.pk, result="1-0", revision=0)
    address = url("game_result", competition, game.pk)
    asked = desk_client.post(address, {"result": "0-1", "revision": 1}, headers=HTMX)
    html = asked.content.decode()
    assert 'id="confirm-correction"' in html and "White won (1-0) →" in html
    assert "Black won (0-1)" in html and white.player.name in html
    assert points(game) == (1, 0)
    # a second desk changed it meanwhile: the confirmation is refused as stale
    services.game_result_record(
        competition=competition, game_id=game.pk, result="1/2-1/2", revision=1, confirmed=True
    )
    stale = desk_client.post(
        address, {"result": "0-1", "revision": 1, "confirm": "1"}, headers=HTMX
    ).content.decode()
    assert "Someone else changed this game" in stale
    assert points(game) == (rules.HALF, rules.HALF)
    done = desk_client.post(
        address, {"result": "0-1", "revision": 2, "confirm": "1"}, headers=HTMX
    ).content.decode()
    assert "Result saved." in done and points(game) == (0, 1)


def test_desk_rows_say_white_and_black_with_names(desk_client, duel):
    competition, game, white, black = duel
    html = desk_client.get(url("desk_table", competition, 1)).content.decode()
    assert f'aria-label="White won: {white.player.name}"' in html
    assert f'aria-label="Black won: {black.player.name}"' in html
    assert ">White won</button>" in html and ">Black won</button>" in html
    assert 'class="colour-tag white-tag">White</span>' in html


@override_settings(SITE_URL=VENUE, ALLOWED_HOSTS=["127.0.0.1", "testserver"])
def test_the_links_sheet_and_its_qr_codes_use_site_url(desk_client, duel):
    competition, *_ = duel
    slips = desk_client.get(url("links", competition), HTTP_HOST="127.0.0.1", follow=True)
    links = links_of(pdf_of(slips))  # the print kit's slips, a link over each QR code
    assert links and all(link.startswith(f"{VENUE}/p/") for link in links)


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


@pytest.mark.parametrize("players", [3, 7])
def test_desk_table_takes_constant_queries(
    desk_client, event, django_assert_max_num_queries, players
):
    competition, _ = started_with(event, f"d{players}", players)
    # session, user, competition, organiser check, games, seats, entries, turns, reports,
    # corrections, the help badge's count
    with django_assert_max_num_queries(11):
        assert desk_client.get(url("desk_table", competition, 1)).status_code == 200
    with django_assert_max_num_queries(8):
        assert desk_client.get(url("desk", competition)).status_code == 200


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


ACCESS = {
    "roundrobin:desk": SCOREKEEPER,
    "roundrobin:desk_home": SCOREKEEPER,  # the same page under the name every format has
    "roundrobin:desk_table": SCOREKEEPER,
    "roundrobin:game_result": SCOREKEEPER,
    "roundrobin:start": MANAGE,
    "roundrobin:withdraw": MANAGE,
    "roundrobin:links": MANAGE,
    "roundrobin:adjudicate": MANAGE,
    "roundrobin:desk_leave": MANAGE,
}


def test_every_desk_page_is_in_the_table_as_its_view_declares():
    assert declared_access("roundrobin") == ACCESS


H = dt.timedelta(hours=1)


def test_an_adjudication_shows_no_undo_button_and_its_undo_is_refused(
    desk_client, organiser, event
):
    competition, game, _white, _black = started_duel(event, slug="adj")
    table_adjudicate(
        competition=competition,
        number=1,
        decisions={game.pk: ("1-0", game.revision)},
        reason="The season is over",
        by=organiser,
        now=START + 2 * H,
    )
    correction = Correction.objects.get(competition=competition)
    assert correction.payload["adjudicated"]
    with time_machine.travel(START + 3 * H, tick=False):
        address = reverse(
            "roundrobin:desk_table", args=[competition.event.slug, competition.slug, 1]
        )
        page = desk_client.get(address).content.decode()
        assert "The season is over" in page
        assert reverse("events:correction_undo", args=[correction.pk]) not in page
        assert "an adjudication has no undo: correct the result instead" in page
        forged = desk_client.post(
            reverse("events:correction_undo", args=[correction.pk]), {"next": address}
        )
    assert forged.status_code < 500
    correction.refresh_from_db()
    assert not Correction.objects.filter(reverts=correction).exists()
    assert GameDetail.objects.get(game=game).adjudicated
    with pytest.raises(Refused, match="An adjudication is not undone"):
        correction_undo(correction=correction, by=organiser)


def test_the_desk_keeps_the_full_name(desk_client, named):
    competition, (a, b, c) = named
    for address in (
        url("desk", competition),
        url("desk_table", competition, 1),
        url("withdraw", competition, a.pk),
    ):
        html = page(desk_client, address)
        assert FULL in html and SHORT not in html, address
    # The private links are keys the organiser hands over: the slips name players in full.
    slips = text_of(pdf_of(desk_client.get(url("links", competition), follow=True)))
    assert FULL in slips and SHORT not in slips
    crosstable = page(desk_client, url("desk_table", competition, 1))
    assert f'title="{FULL}"' in crosstable  # the shared crosstable, on the desk's side
