"""The private page's notification form: e-mail and push are two boxes, each saved as posted
(real posts through the test client); ticking push never turns e-mail on, nor off."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from events.models import Player
from events.outbox import notify
from events.outbox.models import NotificationPreference
from tests.support.notify import PRIVATE, PUBLIC
from tests.support.roundrobin import private, started_with

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def push_set_up(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = PRIVATE, PUBLIC


def boxes(html: str) -> dict[str, bool]:
    """Each notification box of the page: ticked or not."""
    found = re.findall(r'<input type="checkbox" name="(email|push)" id="notify-\1"([^>]*)>', html)
    return {name: "checked" in rest for name, rest in found}


@pytest.fixture
def player_page(client, event):
    _competition, (entry, _other) = started_with(event, "notify", 2)
    Player.objects.filter(pk=entry.player_id).update(email="a@example.org")
    address = private(client, entry)
    return entry, address, reverse("roundrobin:private_notify", args=[entry.pk])


def choice(entry) -> tuple[bool, bool]:
    preference = NotificationPreference.objects.get(player=entry.player_id)
    return preference.email, preference.push


def test_e_mail_and_push_are_separate_boxes_and_each_keeps_to_itself(client, player_page):
    entry, address, url = player_page
    notify.preference_set(
        player=entry.player, event=entry.competition.event, email=False, push=False
    )
    assert boxes(client.get(address).content.decode()) == {"email": False, "push": False}
    # Push ticked, e-mail left unticked: e-mail stays off.
    assert client.post(url, {"push": "on"}).status_code == 303
    assert choice(entry) == (False, True)
    assert boxes(client.get(address).content.decode()) == {"email": False, "push": True}
    # E-mail ticked as well, then push unticked: e-mail stays on.
    client.post(url, {"email": "on", "push": "on"})
    assert choice(entry) == (True, True)
    client.post(url, {"email": "on"})
    assert choice(entry) == (True, False)
    assert boxes(client.get(address).content.decode()) == {"email": True, "push": False}


def test_without_a_choice_the_e_mail_box_shows_the_reminders_and_push_alone_is_push_only(
    client, player_page
):
    entry, address, url = player_page
    # No choice yet: the reminders come by e-mail, and the e-mail box says so.
    assert boxes(client.get(address).content.decode()) == {"email": True, "push": False}
    client.post(url, {"push": "on"})  # the e-mail box unticked by the player, push ticked
    assert choice(entry) == (False, True)


def test_quiet_hours_chosen_on_the_persons_page_stay(client, player_page):
    entry, _address, url = player_page
    event = entry.competition.event
    notify.preference_set(
        player=entry.player,
        event=event,
        email=True,
        push=False,
        quiet_from=dt.time(22),
        quiet_to=dt.time(7),
    )
    client.post(url, {"email": "on", "push": "on"})
    preference = NotificationPreference.objects.get(player=entry.player_id)
    assert (preference.quiet_from, preference.quiet_to) == (dt.time(22), dt.time(7))


def test_without_push_on_the_site_the_e_mail_box_is_still_a_choice(client, player_page, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    entry, address, url = player_page
    assert boxes(client.get(address).content.decode()) == {"email": True}
    assert client.post(url, {}).status_code == 303
    assert choice(entry) == (False, False)
    assert boxes(client.get(address).content.decode()) == {"email": False}
