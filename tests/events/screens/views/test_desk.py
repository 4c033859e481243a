"""The desk's screens page: only the event's organisers pair and switch; wrong codes are
counted and locked; every answer is private."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.screens import contact, services
from events.screens.models import Screen, Shows
from events.screens.views.desk import CODE_TRIES
from tests.support.paired_screens import desk_url, paired_screen

pytestmark = pytest.mark.django_db


def show_url(screen, event):
    return reverse("events:screen_show", args=[event.slug, screen.pk])


def action_url(screen, event, action):
    return reverse("events:screen_action", args=[event.slug, screen.pk, action])


def test_only_the_events_organisers_see_pair_and_switch(client, outsider, event, competition):
    screen = paired_screen(event)
    assert "login" in client.get(desk_url(event))["Location"]
    client.force_login(outsider)
    assert client.get(desk_url(event)).status_code == 403
    code = services.pairing_start().code
    assert client.post(desk_url(event), {"code": code, "name": "X"}).status_code == 403
    data = {f"s{screen.pk}-shows": Shows.ANNOUNCEMENT, f"s{screen.pk}-announcement": "Hi"}
    assert client.post(show_url(screen, event), data).status_code == 403
    assert client.post(action_url(screen, event, "remove")).status_code == 403
    screen.refresh_from_db()
    assert screen.shows == Shows.CYCLE and Screen.objects.count() == 1


def test_the_desk_pairs_switches_pauses_and_forgets(desk_client, event, competition):
    page = desk_client.get(desk_url(event))
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    code = services.pairing_start().code
    response = desk_client.post(desk_url(event), {"code": code, "name": "Hall left"})
    assert response.status_code == 302
    screen = Screen.objects.get()
    data = {f"s{screen.pk}-shows": Shows.ANNOUNCEMENT, f"s{screen.pk}-announcement": "Lunch"}
    assert desk_client.post(show_url(screen, event), data).status_code == 302
    assert desk_client.post(action_url(screen, event, "pause")).status_code == 302
    screen.refresh_from_db()
    assert (screen.shows, screen.announcement, screen.paused) == (Shows.ANNOUNCEMENT, "Lunch", True)
    listed = desk_client.get(desk_url(event)).content.decode()
    assert "Hall left" in listed and "Lunch" in listed
    assert desk_client.post(action_url(screen, event, "resume")).status_code == 302
    assert desk_client.post(action_url(screen, event, "explode")).status_code == 404
    assert desk_client.post(action_url(screen, event, "remove")).status_code == 302
    assert not Screen.objects.exists()


def test_errors_appear_beside_the_field(desk_client, event, competition):
    response = desk_client.post(desk_url(event), {"code": "NOPE42", "name": "Hall"})
    assert response.status_code == 400
    assert response.context["form"].errors["code"]
    screen = paired_screen(event)
    data = {f"s{screen.pk}-shows": Shows.ANNOUNCEMENT, f"s{screen.pk}-announcement": ""}
    response = desk_client.post(show_url(screen, event), data)
    assert response.status_code == 400
    assert "Type the announcement" in response.content.decode()
    data = {f"s{screen.pk}-shows": "<script>", f"s{screen.pk}-announcement": ""}
    assert desk_client.post(show_url(screen, event), data).status_code == 400


def test_a_screen_of_another_event_is_not_found(desk_client, event, competition, outsider):
    from tests.support.factories import EventFactory

    other = EventFactory(slug="other", organisers=[outsider])
    screen = paired_screen(other)
    assert desk_client.post(action_url(screen, event, "remove")).status_code == 404
    assert Screen.objects.filter(pk=screen.pk).exists()


def test_guessing_codes_locks_the_form(desk_client, event, competition):
    for _ in range(CODE_TRIES):
        assert desk_client.post(desk_url(event), {"code": "ZZZZZZ", "name": "H"}).status_code == 400
    right = services.pairing_start().code
    response = desk_client.post(desk_url(event), {"code": right, "name": "H"})
    assert response.status_code == 429 and not Screen.objects.exists()


def test_the_page_polls_each_screens_last_contact_without_touching_its_forms(
    desk_client, client, outsider, event, competition, django_assert_max_num_queries
):
    left, right = paired_screen(event, name="Hall left"), paired_screen(event, name="Hall right")
    page = desk_client.get(desk_url(event)).content.decode()
    assert f'id="contact-{left.pk}"' in page and "?contacts" in page
    assert "No contact known" in page
    contact.seen(left.pk)
    with django_assert_max_num_queries(8):
        polled = desk_client.get(desk_url(event) + "?contacts", headers={"HX-Request": "true"})
    lines = polled.content.decode()
    assert polled.status_code == 200 and "no-store" in polled["Cache-Control"]
    assert lines.count('hx-swap-oob="true"') == 2 and "<form" not in lines
    assert "Last contact" in lines.split(f'id="contact-{right.pk}"')[0]
    client.force_login(outsider)
    assert client.get(desk_url(event) + "?contacts").status_code == 403
