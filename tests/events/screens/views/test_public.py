"""A screen's browser: a code at the pairing address, sent on to its screen once paired, then
the screen's page as the desk chose it, with the version's ETag, no cookie, and a 304 decided
before any rendering."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events.formats import all_formats
from events.models import Game
from events.screens import contact, services
from events.screens.models import Shows
from events.screens.views.public import PAIRINGS_PER_ADDRESS
from tests.support import blokus
from tests.support.paired_screens import page_of, paired_screen
from tests.support.screens import demo_of, screen_url

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "screen-live"}


def test_a_browser_is_given_a_code_then_sent_to_its_screen(client, event, competition):
    start = client.get(reverse("events:screen_pair"))
    assert start.status_code == 302
    wait = client.get(start["Location"])
    assert wait.status_code == 200 and "no-store" in wait["Cache-Control"]
    assert not wait.cookies and "csrfmiddlewaretoken" not in wait.content.decode()
    code = wait.context["code"]
    assert code in wait.content.decode()
    assert client.get(start["Location"], **HX).status_code == 204  # nothing yet: no swap
    screen = services.screen_pair(event=event, code=code, name="Hall left")
    assert client.get(start["Location"])["Location"] == page_of(screen)
    assert client.get(start["Location"], **HX)["HX-Redirect"] == page_of(screen)


def test_an_expired_code_gets_a_new_one_and_an_unknown_claim_is_404(client):
    start = client.get(reverse("events:screen_pair"))
    later = timezone.now() + dt.timedelta(seconds=services.PAIRING_SECONDS + 5)
    with time_machine.travel(later):
        again = client.get(start["Location"], **HX)
    assert again["HX-Redirect"] == reverse("events:screen_pair")
    bad = reverse("events:screen_pair_wait", args=["nope"])
    assert client.get(bad).status_code == 404


def test_asking_for_codes_is_limited_per_address(client):
    for _ in range(PAIRINGS_PER_ADDRESS):
        assert client.get(reverse("events:screen_pair")).status_code == 302
    assert client.get(reverse("events:screen_pair")).status_code == 429


def test_the_screen_page_follows_the_desk_with_a_new_etag(client, event):
    competition = blokus.small(event)
    blokus.seated_round(competition, competition.sessions.first(), 8)
    screen = paired_screen(event)
    first = client.get(page_of(screen))
    assert first.status_code == 200 and not first.cookies
    assert "Where do I sit?" in first.content.decode()
    etag = first["ETag"]
    assert client.get(page_of(screen), HTTP_IF_NONE_MATCH=etag, **HX).status_code in (200, 304)
    services.screen_show(screen=screen, shows=Shows.ANNOUNCEMENT, announcement="Lunch <b>now</b>")
    poll = client.get(page_of(screen), HTTP_IF_NONE_MATCH=etag, **HX)
    assert poll.status_code == 200 and poll["ETag"] != etag
    body = poll.content.decode()
    assert "Lunch &lt;b&gt;now&lt;/b&gt;" in body and "Where do I sit?" not in body
    assert 'hx-trigger="every 10s"' in body


def test_a_current_poll_is_a_304_with_one_query(
    client, event, competition, django_assert_max_num_queries
):
    screen = paired_screen(event)
    first = client.get(page_of(screen), **HX)
    with django_assert_max_num_queries(2):  # the screen, then the version (no render)
        again = client.get(page_of(screen), HTTP_IF_NONE_MATCH=first["ETag"], **HX)
    assert again.status_code == 304


def test_a_poll_records_the_last_contact(client, event, competition):
    screen = paired_screen(event)
    client.get(page_of(screen))
    assert screen.pk in contact.last_contacts([screen.pk])


def test_a_seating_of_a_finished_round_falls_back_to_the_cycle_of_standings(client, event):
    competition = blokus.small(event)
    round_ = blokus.seated_round(competition, competition.sessions.first(), 8)
    screen = paired_screen(event)
    services.screen_show(screen=screen, shows=Shows.SEATING)
    assert "Where do I sit?" in client.get(page_of(screen)).content.decode()
    Game.objects.filter(round=round_).update(status=Game.Status.FINISHED)
    services.screen_pause(screen=screen, paused=True)  # a write: a new version
    body = client.get(page_of(screen)).content.decode()
    # Blokus' screen has no standings page: its cycle stays up rather than nothing.
    assert "screen-page" in body and "data-screen-paused" in body


@pytest.mark.parametrize("shows", [Shows.CLOCK, Shows.SIGN_UP])
def test_the_room_draws_the_clock_and_the_sign_up_code(client, event, competition, shows):
    screen = paired_screen(event)
    services.screen_show(screen=screen, shows=shows)
    body = client.get(page_of(screen)).content.decode()
    marker = "screen-wall-clock" if shows == Shows.CLOCK else "screen-sign-up"
    assert marker in body and "screen-page " not in body
    if shows == Shows.SIGN_UP:
        assert reverse("events:signup", args=[event.slug]) in body


def test_an_unknown_or_forgotten_screen_is_404(client, event, competition):
    screen = paired_screen(event)
    url = page_of(screen)
    services.screen_remove(screen=screen)
    assert client.get(url).status_code == 404
    assert client.get("/screen/" + "A" * 300 + "/").status_code == 404


def test_a_screen_of_an_event_without_competitions_waits(client, event):
    screen = paired_screen(event)
    response = client.get(page_of(screen))
    assert response.status_code == 200 and "no competition" in response.content.decode()


def test_the_screen_page_is_in_the_event_language(client, event, competition):
    event.language = "sv"
    event.save()
    screen = paired_screen(event)
    services.screen_show(screen=screen, shows=Shows.SIGN_UP)
    body = client.get(page_of(screen)).content.decode()
    assert 'lang="sv"' in body


def test_a_paired_render_costs_what_the_formats_page_costs_and_two_more(client, event):
    competition = blokus.small(event)
    blokus.seated_round(competition, competition.sessions.first(), 8)
    screen = paired_screen(event)
    services.screen_show(screen=screen, shows=Shows.SEATING)
    with CaptureQueriesContext(connection) as plain:
        assert client.get(screen_url(competition)).status_code == 200
    with CaptureQueriesContext(connection) as paired:
        assert client.get(page_of(screen)).status_code == 200
    # the screen by its token, the chosen round's open games
    assert len(paired) <= len(plain) + 2


@pytest.mark.parametrize("game_format", all_formats(), ids=lambda f: f.key)
def test_every_format_shows_every_choice(client, demo, game_format):
    competition = demo_of(demo, game_format.key)
    screen = paired_screen(competition.event)
    for shows in Shows.values:
        services.screen_show(screen=screen, shows=shows, announcement="Hello")
        response = client.get(page_of(screen))
        assert response.status_code == 200, (game_format.key, shows)
        assert 'id="screen-live"' in response.content.decode()
