"""The desk's event pages through real requests (events/desk/views/event.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from events.models import Event
from tests.support.desk import HTMX, desk_url, entered_players as _players


def test_a_new_competition_opens_on_its_settings_as_the_message_says(desk_client, event):
    answer = desk_client.post(
        reverse("events:competition_create", args=[event.slug]),
        {"name": "Sjoelen", "format": "shuffleboard"},
    )
    assert answer.status_code == 302
    assert answer["Location"].endswith("?new#settings")
    page = desk_client.get(answer["Location"]).content.decode()
    assert "Check its settings below." in page
    assert re.search(r'<details class="panel" id="settings" open>', page)
    # Later visits keep the desk short: settings closed.
    later = desk_client.get(answer["Location"].split("?")[0]).content.decode()
    assert '<details class="panel" id="settings">' in later


pytestmark = pytest.mark.django_db


def test_the_desk_lists_only_my_events(desk_client, competition, outsider):
    html = desk_client.get(reverse("events:desk")).content.decode()
    assert "LinCon 2026" in html
    assert outsider.organised_events.get().name not in html


def test_it_creates_an_event_and_goes_to_its_competition(desk_client, organiser):
    response = desk_client.post(
        reverse("events:event_create"),
        {
            "name": "Tallinn Open",
            "starts_on": "2026-06-01",
            "ends_on": "2026-06-01",
            "time_zone": "Europe/Tallinn",
            "is_public": "on",
            "competition_name": "Sjoelen",
            "competition_format": "shuffleboard",
        },
    )
    event = Event.objects.get(name="Tallinn Open")
    competition = event.competitions.get()
    assert response["Location"] == competition.get_desk_url() + "?new#settings"
    assert competition.settings["games"] == 10
    assert organiser in event.organisers.all()


def test_a_bad_event_form_keeps_what_was_typed(desk_client):
    response = desk_client.post(
        reverse("events:event_create"),
        {
            "name": "Keep Me",
            "starts_on": "2026-06-02",
            "ends_on": "2026-06-01",
            "time_zone": "Europe/Tallinn",
            "competition_name": "",
            "competition_format": "chess",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Keep Me"' in html
    assert "cannot end before it starts" in html
    assert "Select a valid choice" in html
    assert not Event.objects.filter(name="Keep Me").exists()


def test_an_event_with_one_competition_skips_the_event_level(desk_client, competition):
    response = desk_client.get(reverse("events:event_desk", args=[competition.event.slug]))
    assert response["Location"] == competition.get_desk_url()
    page = desk_client.get(reverse("events:event_desk", args=[competition.event.slug]) + "?all")
    assert page.status_code == 200


def test_it_adds_a_second_competition(desk_client, competition):
    response = desk_client.post(
        reverse("events:competition_create", args=[competition.event.slug]),
        {"name": "Round robin", "format": "roundrobin"},
    )
    assert response.status_code == 302
    assert competition.event.competitions.count() == 2


@pytest.mark.parametrize("n", [3, 30])
def test_the_desk_runs_a_constant_number_of_queries(
    desk_client, competition, n, django_assert_max_num_queries
):
    _players(competition, n)
    # session, user, competition+event, organiser check, entries with players, corrections,
    # the help badge's count
    with django_assert_max_num_queries(8):
        desk_client.get(competition.get_desk_url())
    with django_assert_max_num_queries(6):
        desk_client.get(desk_url("player_search", competition) + "?q=p", headers=HTMX)
    with django_assert_max_num_queries(9):  # without JavaScript: the desk plus the search
        desk_client.get(desk_url("player_search", competition) + "?q=p")
    with django_assert_max_num_queries(6):
        desk_client.get(reverse("events:desk"))


def test_an_organiser_adds_another_login(desk_client, competition, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="x")
    url = reverse("events:organiser_add", args=[competition.event.slug])
    assert desk_client.post(url, {"username": "BOB"}).status_code == 302
    assert bob in competition.event.organisers.all()
    again = desk_client.post(url, {"username": "bob"})
    assert again.status_code == 400 and "already organises" in again.content.decode()
    nobody = desk_client.post(url, {"username": "nobody"})
    assert "There is no login named “nobody”" in nobody.content.decode()
    assert 'value="nobody"' in nobody.content.decode()


def test_outsiders_cannot_add_organisers(client, outsider, competition):
    client.force_login(outsider)
    url = reverse("events:organiser_add", args=[competition.event.slug])
    assert client.post(url, {"username": "mallory"}).status_code == 403
    assert outsider not in competition.event.organisers.all()
