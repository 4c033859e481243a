"""The player's feed token (``events.calendar.links``) and the subscribe boxes that show it: on
the person's page behind the sign-up link and on a round-robin player's private page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from events.calendar.links import player_token, subscribe_links, token_player_id
from events.signups.models import SignUp, SignUpStatus, SignUpWindow
from events.signups.services.mail import person_token
from roundrobin.models import PlayerToken
from tests.support.factories import EntryFactory, PlayerFactory
from tests.support.roundrobin import START, enter_players, make_competition


def test_a_token_reads_back_the_same_player_and_is_the_same_every_time():
    assert player_token(42) == player_token(42) != player_token(43)
    assert token_player_id(player_token(42)) == 42


@pytest.mark.parametrize(
    "tampered",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),
        lambda t: "Mw" + t[2:],  # another id, the same signature
        lambda t: t + t,
        lambda t: "x" * 300,
        lambda t: "",
        lambda t: person_token("someone@example.org"),  # another link's token
    ],
)
def test_an_altered_or_foreign_token_names_no_player(tampered, settings):
    assert token_player_id(tampered(player_token(42))) is None


def test_the_subscribe_box_has_webcal_https_and_a_qr_code(settings):
    settings.SITE_URL = "https://events.example.org"
    links = subscribe_links("/calendar/abc.ics")
    assert links.https == "https://events.example.org/calendar/abc.ics"
    assert links.webcal == "webcal://events.example.org/calendar/abc.ics"
    assert "<svg" in links.qr and links.https in links.qr


@pytest.mark.django_db
def test_the_persons_page_links_the_feed_of_their_seat(client, competition):
    player = PlayerFactory(email="sue@example.org")
    entry = EntryFactory(competition=competition, player=player)
    window = SignUpWindow.objects.create(
        competition=competition,
        opens_at=timezone.now() - dt.timedelta(days=1),
        closes_at=timezone.now() + dt.timedelta(days=1),
        cap=4,
    )
    SignUp.objects.create(
        window=window,
        name=player.name,
        email="sue@example.org",
        status=SignUpStatus.CONFIRMED,
        confirmed_at=timezone.now(),
        entry=entry,
    )
    page = client.get(f"/sign-up/{person_token('sue@example.org')}/").content.decode()
    assert f"webcal://localhost:8000/calendar/{player_token(player.pk)}.ics" in page
    assert "every few hours" in page
    assert client.get(f"/calendar/{player_token(player.pk)}.ics").status_code == 200


@pytest.mark.django_db
def test_a_round_robin_players_private_page_links_their_feed(client, event):
    from roundrobin import services

    league = make_competition(event)
    entries = enter_players(league, 3)
    services.competition_start(competition=league, seed=1, now=START)
    token = PlayerToken.objects.get(entry=entries[0]).token
    exchanged = client.get(f"/p/{token}/")  # the token for the page's cookie, then the page
    page = client.get(exchanged["Location"]).content.decode()
    assert f"/calendar/{player_token(entries[0].player_id)}.ics" in page
