"""The round robin at the desk and on the phone: results from the player's own side, confirmed;
no registration after the start; a result replaced only when confirmed; e-mails that name the
game and the opponent with absolute links from SITE_URL."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import given, strategies as st

from events import services as event_services
from events.errors import Conflict, Refused, Stale
from events.models import Entry, Seat
from events.outbox import queue as outbox
from roundrobin import rules, services
from roundrobin.models import ResultReport
from tests.support.factories import EntryFactory, PlayerFactory
from tests.support.roundrobin import START, enter_players, make_competition, private

H = dt.timedelta(hours=1)
HTMX = {"HX-Request": "true"}
VENUE = "http://192.168.1.20:8000"
WHITE_SIDE = {"won": "1-0", "draw": "1/2-1/2", "lost": "0-1", "resign": "0-1"}
BLACK_SIDE = {"won": "0-1", "draw": "1/2-1/2", "lost": "1-0", "resign": "1-0"}


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


def points(game):
    return tuple(
        Seat.objects.filter(game=game).order_by("position").values_list("points", flat=True)
    )


# --- "I won / Draw / I lost / I resign": the mapping ------------------------------------------


@given(outcome=st.sampled_from(rules.OUTCOMES), position=st.sampled_from([1, 2]))
def test_an_outcome_maps_to_the_result_from_whites_side(outcome, position):
    result = rules.result_of_outcome(outcome, position)
    assert result == (WHITE_SIDE if position == 1 else BLACK_SIDE)[outcome]
    mine = rules.result_points(result)[position - 1]
    assert mine == {"won": 1, "draw": rules.HALF, "lost": 0, "resign": 0}[outcome]
    # read back from the same side: the same words (resigning reads as a loss)
    assert rules.outcome_of_result(result, position) == ("lost" if outcome == "resign" else outcome)


@given(outcome=st.text(max_size=8).filter(lambda text: text not in rules.OUTCOMES))
def test_anything_else_is_refused_in_words(outcome):
    with pytest.raises(rules.InvalidResult):
        rules.result_of_outcome(outcome, 1)


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


# --- registration after the start -------------------------------------------------------------


def test_no_registration_or_check_in_after_the_start(duel):
    competition, *_ = duel
    late = PlayerFactory(name="Late Comer")
    registered = EntryFactory(competition=competition)  # before the start, never checked in
    calls = [
        lambda: event_services.player_register(competition=competition, player=late),
        lambda: event_services.player_register_new(competition=competition, name="New Person"),
        lambda: event_services.entry_check_in(entry=registered),
    ]
    for call in calls:
        with pytest.raises(Refused) as refused:
            call()
        assert refused.value.code == "registration_closed"
        assert "has started" in refused.value.text and "no one can join" in refused.value.text
    assert not Entry.objects.filter(player=late).exists()
    registered.refresh_from_db()
    assert registered.checked_in_at is None


def test_the_desk_says_why_a_late_registration_is_refused(desk_client, duel):
    competition, *_ = duel
    late = PlayerFactory(name="Late Comer")
    address = reverse("events:register_known", args=[competition.event.slug, competition.slug])
    response = desk_client.post(address, {"player": late.pk, "check_in": "1"}, headers=HTMX)
    assert "no one can join or check in now" in response.content.decode()
    assert not Entry.objects.filter(player=late).exists()


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


# --- a result replaced only when confirmed ----------------------------------------------------


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


# --- e-mails ----------------------------------------------------------------------------------


@override_settings(SITE_URL=VENUE)
def test_the_private_link_mail_names_every_game_and_links_to_site_url(
    event, django_capture_on_commit_callbacks
):
    competition = make_competition(event, slug="mail")
    entries = enter_players(competition, 3)
    for entry in entries:
        entry.player.email = f"p{entry.pk}@example.org"
        entry.player.save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.competition_start(competition=competition, seed=5, now=START)
    sent = {message.to[0]: message for message in mail.outbox}
    body = sent[entries[0].player.email].body
    assert f"{VENUE}/p/" in body and "localhost" not in body
    for other in entries[1:]:
        assert other.player.name in body
    assert "Table 1, game" in body and ("White against" in body and "Black against" in body)


@override_settings(SITE_URL=VENUE)
def test_a_reminder_names_the_game_the_colour_and_the_opponent(duel):
    competition, game, white, black = duel
    for entry in (white, black):
        entry.player.email = f"p{entry.pk}@example.org"
        entry.player.save()
    services.move_submit(entry=white, game_id=game.pk, turn=1, text="e4", now=START + H)
    mail.outbox.clear()
    assert services.reminders_send(now=START + 19 * H) == 1
    outbox.drain(now=START + 19 * H)
    (message,) = mail.outbox
    assert message.to == [black.player.email]
    assert white.player.name in message.subject
    assert f"Table 1, game {game.number}: Black against {white.player.name}" in message.body
    assert f"{VENUE}/p/" in message.body and "(Europe/" in message.body


@override_settings(SITE_URL=VENUE, ALLOWED_HOSTS=["127.0.0.1", "testserver"])
def test_the_links_sheet_and_its_qr_codes_use_site_url(desk_client, duel):
    competition, *_ = duel
    html = desk_client.get(url("links", competition), HTTP_HOST="127.0.0.1").content.decode()
    assert f'href="{VENUE}/p/' in html and "http://127.0.0.1" not in html


def test_a_private_link_mail_waits_on_the_outbox_while_the_mail_server_is_down(
    event, django_capture_on_commit_callbacks
):
    """The link is queued, not sent once on commit: that way it was lost for good when the
    sending failed."""
    from events.outbox.models import OutboxMessage, OutboxStatus
    from tests.support.outbox import server_down

    competition = make_competition(event, slug="down")
    entries = enter_players(competition, 3)
    for entry in entries:
        entry.player.email = f"p{entry.pk}@example.org"
        entry.player.save()
    mail.outbox.clear()
    with server_down(), django_capture_on_commit_callbacks(execute=True):
        services.competition_start(competition=competition, seed=5, now=START)
    links = OutboxMessage.objects.filter(key__startswith="rr-link:")
    assert links.count() == 3 and mail.outbox == []
    assert set(links.values_list("status", flat=True)) == {OutboxStatus.PENDING}
    assert all(m.attempts == 1 and m.last_error for m in links)
    # The server is back: the loop's drain (after the backoff) delivers every link, once.
    report = outbox.drain(now=timezone.now() + dt.timedelta(minutes=5))
    assert report.sent == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted(e.player.email for e in entries)
    assert all("/p/" in m.body for m in mail.outbox)
