"""The players' help pages: the form from a table or a player's page (no account), the call's
own page following its status, and what they refuse."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.help import services
from events.help.models import HelpCall
from events.models import Competition
from tests.support.help import call_page, help_world, player_url, table_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return help_world()


def test_a_table_page_asks_for_a_reason_and_sends_the_call(client, world):
    page = client.get(table_url(world.competition, 2))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Help at table 2" in body and 'name="reason"' in body
    assert "no-cache" in page["Cache-Control"] or "max-age=0" in page["Cache-Control"]
    sent = client.post(table_url(world.competition, 2), {"reason": "piece", "note": "red 5"})
    call = HelpCall.objects.get()
    assert sent.status_code == 302 and sent["Location"] == call_page(call)
    assert (call.table, call.reason, call.note) == (2, "piece", "red 5")


def test_a_players_page_calls_from_the_players_own_table(client, world):
    entry = world.seated(1)[2]
    page = client.get(player_url(entry))
    assert "Help at table 1" in page.content.decode()
    client.post(player_url(entry), {"reason": "dispute"})
    assert HelpCall.objects.get().entry == entry


def test_the_call_page_says_waiting_then_someone_is_coming_then_done(client, world):
    call, _ = services.call_for_help(competition=world.competition, table=1, reason="clock")
    page = client.get(call_page(call)).content.decode()
    assert "The desk has your call." in page and 'hx-trigger="every 5s"' in page
    services.call_take(call=call, by=world.scorekeeper)
    assert "Someone is coming to your table." in client.get(call_page(call)).content.decode()
    services.call_close(call=call, by=world.scorekeeper)
    done = client.get(call_page(call)).content.decode()
    assert "Done: this call is closed." in done and "hx-trigger" not in done.split("help-status")[1]


def test_a_form_without_a_reason_is_refused_beside_the_field(client, world):
    answer = client.post(table_url(world.competition, 1), {"reason": "", "note": "x"})
    assert answer.status_code == 400
    assert "Choose a reason." in answer.content.decode()
    assert not HelpCall.objects.exists()


def test_refusals_are_said_on_the_page(client, world):
    answer = client.post(table_url(world.competition, 7), {"reason": "clock"})
    assert answer.status_code == 400
    assert "Table 7 is not in play just now" in answer.content.decode()
    Competition.objects.filter(pk=world.competition.pk).update(status="finished")
    finished = client.get(table_url(world.competition, 1)).content.decode()
    assert "This competition is finished" in finished and 'name="reason"' not in finished
    assert not HelpCall.objects.exists()


def test_unknown_addresses_are_404(client, world):
    other = help_world(slug="other-cup")
    call, _ = services.call_for_help(competition=other.competition, table=1, reason="clock")
    assert client.get(call_page(call)).status_code == 200
    # The key works under its own event only, and a made-up key finds nothing.
    assert (
        client.get(reverse("events:help_call", args=[world.event.slug, call.key])).status_code
        == 404
    )
    assert (
        client.get(reverse("events:help_call", args=[world.event.slug, "x" * 24])).status_code
        == 404
    )
    foreign = other.seated(1)[0]
    url = reverse("events:help_player", args=[world.event.slug, world.competition.slug, foreign.pk])
    assert client.get(url).status_code == 404


def test_the_help_pages_read_a_constant_number_of_queries(
    client, world, django_assert_max_num_queries
):
    call, _ = services.call_for_help(competition=world.competition, table=1, reason="clock")
    with django_assert_max_num_queries(4):
        client.get(table_url(world.competition, 2))
    entry = world.seated(2)[0]
    with django_assert_max_num_queries(5):
        client.get(player_url(entry))
    with django_assert_max_num_queries(2):
        client.get(call_page(call))


def test_a_competition_called_help_does_not_take_the_calls_address(client, world):
    from events.services.events import competition_create

    named = competition_create(event=world.event, name="Help", format="blokus")
    assert named.slug != "help"
